// system_record.h: the NT kernel logger's own headers.
//
// The kernel logs its events (process, thread, image, disk, sampled profile,
// stack walk ...) with three compact headers instead of EVENT_HEADER: SYSTEM
// (with pid, tid and CPU times), its compact form (no CPU times) and
// PERFINFO (no pid/tid at all: hot paths such as samples). None carries a
// GUID; the event is named by a hook id, (group << 8) | type, and consumers see
// the group's event class GUID (kernel_groups.h) with the type as opcode.
// The low byte of Version is the MOF class version; its high bits announce a
// PEBS index and PMC counters appended to the fixed header (etw-formats.md
// 1.5; no sample has them: the order PEBS index first, then counters, is
// assumed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "reader/event.h"
#include "reader/record_fault.h"
#include "reader/record_shape.h"

namespace dtrace::etw {

namespace system_layout {
inline constexpr size_t kVersion = 0x00;
inline constexpr size_t kSize = 0x04;
inline constexpr size_t kHookId = 0x06;
inline constexpr size_t kThreadId = 0x08;
inline constexpr size_t kProcessId = 0x0C;
inline constexpr size_t kSystemTime = 0x10;
inline constexpr size_t kKernelTime = 0x18; // full header only
inline constexpr size_t kUserTime = 0x1C;   // full header only
inline constexpr size_t kFullHeaderSize = 0x20;
inline constexpr size_t kCompactHeaderSize = 0x18;
} // namespace system_layout

namespace perfinfo_layout {
inline constexpr size_t kVersion = 0x00;
inline constexpr size_t kSize = 0x04;
inline constexpr size_t kHookId = 0x06;
inline constexpr size_t kSystemTime = 0x08;
inline constexpr size_t kHeaderSize = 0x10;
} // namespace perfinfo_layout

namespace kernel_version {
inline constexpr uint16_t kClassVersionMask = 0x00FF;
inline constexpr uint16_t kPmcCountMask = 0x0700; // TRACE_HEADER_PMC_COUNTERS_MASK
inline constexpr unsigned kPmcCountShift = 8;
inline constexpr uint16_t kPebsIndexFlag = 0x8000; // TRACE_HEADER_PEBS_INDEX_FLAG
inline constexpr size_t kPebsIndexSize = 8;
inline constexpr size_t kPmcCounterSize = 8;
} // namespace kernel_version

namespace hook {
inline constexpr unsigned kGroupShift = 8;
inline constexpr uint16_t kTypeMask = 0xFF;
} // namespace hook

// SYSTEM and compact SYSTEM records (shape.kind tells which).
RecordFault parse_system_record(std::span<const uint8_t> record, const RecordShape &shape, Event &out);
RecordFault parse_perfinfo_record(std::span<const uint8_t> record, const RecordShape &shape, Event &out);

} // namespace dtrace::etw
