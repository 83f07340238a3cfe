// message_record.h: WPP / TraceMessage records (MESSAGE_TRACE_HEADER).
//
// Software tracing (WPP) logs through TraceMessage(), whose 8-byte header has
// only the size, a message number and option flags; the flags say which
// optional fields follow, always in this order: sequence number, message
// GUID or component id, timestamp, thread and process ids. The arguments
// after them are described by TMF files, not by the trace, so the reader
// hands them on as the payload. Without a timestamp the reader dates a message
// like the record before it on the same CPU. Layout: etw-formats.md 1.5
// (evntrace.h TRACE_MESSAGE_*); no sample file has WPP records.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "reader/event.h"
#include "reader/record_fault.h"
#include "reader/record_shape.h"

namespace dtrace::etw {

namespace message_layout {
inline constexpr size_t kSize = 0x00;
inline constexpr size_t kMarkerFlags = 0x03;
inline constexpr size_t kMessageNumber = 0x04;
inline constexpr size_t kOptionFlags = 0x06;
inline constexpr size_t kHeaderSize = 0x08;
inline constexpr size_t kSequenceSize = 4;
inline constexpr size_t kComponentIdSize = 4;
inline constexpr size_t kTimestampSize = 8;
inline constexpr size_t kSystemInfoSize = 8; // u32 thread id, u32 process id
} // namespace message_layout

namespace message_option {
inline constexpr uint16_t kSequence = 0x0001;
inline constexpr uint16_t kGuid = 0x0002;
inline constexpr uint16_t kComponentId = 0x0004;
inline constexpr uint16_t kTimestamp = 0x0008;
inline constexpr uint16_t kSystemInfo = 0x0020;
inline constexpr uint16_t kPointer32 = 0x0040;
inline constexpr uint16_t kPointer64 = 0x0080;
} // namespace message_option

// Where the optional fields of a message with these option flags are; 0 for
// fields that are absent (no field can start at 0).
struct MessageFields {
    size_t sequence = 0;
    size_t guid = 0;
    size_t component_id = 0;
    size_t timestamp = 0;
    size_t system_info = 0;
    size_t end = message_layout::kHeaderSize; // where the arguments start
};

MessageFields message_fields(uint16_t option_flags);

// default_pointer_size applies when the flags name neither pointer size.
RecordFault parse_message_record(std::span<const uint8_t> record, uint8_t default_pointer_size, Event &out);

} // namespace dtrace::etw
