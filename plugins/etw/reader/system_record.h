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
#include "reader/kernel_groups.h"
#include "reader/le_bytes.h"
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

// SYSTEM and compact SYSTEM records (shape.kind tells which).
inline RecordFault parse_system_record(std::span<const uint8_t> record, const RecordShape &shape, Event &out);
inline RecordFault parse_perfinfo_record(std::span<const uint8_t> record, const RecordShape &shape, Event &out);

// Inline below: most records of a kernel trace take these paths.

// The PEBS index and PMC counters that version announces after the fixed
// header (rare: out of line).
RecordFault parse_kernel_extras(std::span<const uint8_t> record, size_t header_size, uint16_t version, Event &out);

// Fields common to the three kernel headers: identity from the hook id, then
// the payload after the fixed header and its extras.
inline RecordFault parse_kernel_common(std::span<const uint8_t> record, size_t header_size, uint16_t version,
                                       uint16_t hook_id, const RecordShape &shape, Event &out) {
    out.hook_id = hook_id;
    out.opcode = static_cast<uint8_t>(hook_id & hook::kTypeMask);
    out.version = static_cast<uint8_t>(version & kernel_version::kClassVersionMask);
    out.provider = kernel_class_guid(hook_id);
    out.flags = event_flag::kClassicHeader | bitness_flag(shape.pointer_size);
    if ((version & (kernel_version::kPebsIndexFlag | kernel_version::kPmcCountMask)) != 0) {
        return parse_kernel_extras(record, header_size, version, out);
    }
    out.pmc_counters = record.subspan(header_size, 0);
    out.payload = record.subspan(header_size);
    return RecordFault::None;
}

inline RecordFault parse_system_record(std::span<const uint8_t> record, const RecordShape &shape, Event &out) {
    const uint8_t *p = record.data();
    out.tid = load_u32(p + system_layout::kThreadId);
    out.pid = load_u32(p + system_layout::kProcessId);
    if (shape.kind == RecordKind::System) {
        out.kernel_time = load_u32(p + system_layout::kKernelTime);
        out.user_time = load_u32(p + system_layout::kUserTime);
    }
    return parse_kernel_common(record, shape.header_size, load_u16(p + system_layout::kVersion),
                               load_u16(p + system_layout::kHookId), shape, out);
}

inline RecordFault parse_perfinfo_record(std::span<const uint8_t> record, const RecordShape &shape, Event &out) {
    const uint8_t *p = record.data();
    return parse_kernel_common(record, shape.header_size, load_u16(p + perfinfo_layout::kVersion),
                               load_u16(p + perfinfo_layout::kHookId), shape, out);
}

} // namespace dtrace::etw
