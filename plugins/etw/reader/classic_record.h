// classic_record.h: classic (MOF) events, EVENT_TRACE_HEADER and
// EVENT_INSTANCE_GUID_HEADER.
//
// Events logged with TraceEvent()/TraceEventInstance() name themselves by an
// event GUID and a class type (the opcode), level and version; there is no
// event id (consumers see 0). Merged files carry many of these (xperf's
// KernelTraceControl image ids, SysConfig, TRACE_EVENT_INFO metadata). The
// instance form adds an instance id, its parent's id and the parent's GUID.
// Layout: etw-formats.md 1.5 (ntwmi.h, evntrace.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "reader/event.h"
#include "reader/record_fault.h"
#include "reader/record_shape.h"

namespace dtrace::etw {

namespace classic_layout {
inline constexpr size_t kSize = 0x00;
inline constexpr size_t kClassType = 0x04;
inline constexpr size_t kClassLevel = 0x05;
inline constexpr size_t kClassVersion = 0x06;
inline constexpr size_t kThreadId = 0x08;
inline constexpr size_t kProcessId = 0x0C;
inline constexpr size_t kTimeStamp = 0x10;
inline constexpr size_t kGuid = 0x18;
inline constexpr size_t kKernelTime = 0x28;
inline constexpr size_t kUserTime = 0x2C;
inline constexpr size_t kHeaderSize = 0x30;
} // namespace classic_layout

namespace instance_layout {
inline constexpr size_t kInstanceId = 0x30;
inline constexpr size_t kParentInstanceId = 0x34;
inline constexpr size_t kParentGuid = 0x38;
inline constexpr size_t kHeaderSize = 0x48;
} // namespace instance_layout

// EVENT_TRACE_HEADER and EVENT_INSTANCE_GUID_HEADER (shape.kind tells which).
RecordFault parse_classic_record(std::span<const uint8_t> record, const RecordShape &shape, Event &out);

} // namespace dtrace::etw
