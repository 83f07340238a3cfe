// system_record.cpp: SYSTEM, compact SYSTEM and PERFINFO records (see system_record.h).
#include "reader/system_record.h"

#include "reader/kernel_groups.h"
#include "reader/le_bytes.h"

namespace dtrace::etw {

namespace {

// Fields common to the three kernel headers: identity from the hook id and
// the optional PEBS index / PMC counters after the fixed header.
RecordFault parse_kernel_common(std::span<const uint8_t> record, size_t header_size, size_t version_at, size_t hook_at,
                                const RecordShape &shape, Event &out) {
    const uint8_t *p = record.data();
    uint16_t version = load_u16(p + version_at);
    uint16_t hook_id = load_u16(p + hook_at);
    out.hook_id = hook_id;
    out.opcode = static_cast<uint8_t>(hook_id & hook::kTypeMask);
    out.version = static_cast<uint8_t>(version & kernel_version::kClassVersionMask);
    out.provider = kernel_class_guid(hook_id);
    out.flags = event_flag::kClassicHeader | bitness_flag(shape.pointer_size);

    size_t extras_at = header_size;
    if (version & kernel_version::kPebsIndexFlag) {
        if (record.size() < extras_at + kernel_version::kPebsIndexSize) {
            return RecordFault::ExtrasPastEnd;
        }
        out.pebs_index = load_u64(p + extras_at);
        out.has_pebs_index = true;
        extras_at += kernel_version::kPebsIndexSize;
    }
    size_t counters = (version & kernel_version::kPmcCountMask) >> kernel_version::kPmcCountShift;
    size_t counter_bytes = counters * kernel_version::kPmcCounterSize;
    if (record.size() < extras_at + counter_bytes) {
        return RecordFault::ExtrasPastEnd;
    }
    out.pmc_counters = record.subspan(extras_at, counter_bytes);
    out.payload = record.subspan(extras_at + counter_bytes);
    return RecordFault::None;
}

} // namespace

RecordFault parse_system_record(std::span<const uint8_t> record, const RecordShape &shape, Event &out) {
    const uint8_t *p = record.data();
    out.tid = load_u32(p + system_layout::kThreadId);
    out.pid = load_u32(p + system_layout::kProcessId);
    if (shape.kind == RecordKind::System) {
        out.kernel_time = load_u32(p + system_layout::kKernelTime);
        out.user_time = load_u32(p + system_layout::kUserTime);
    }
    return parse_kernel_common(record, shape.header_size, system_layout::kVersion, system_layout::kHookId, shape, out);
}

RecordFault parse_perfinfo_record(std::span<const uint8_t> record, const RecordShape &shape, Event &out) {
    return parse_kernel_common(record, shape.header_size, perfinfo_layout::kVersion, perfinfo_layout::kHookId, shape,
                               out);
}

} // namespace dtrace::etw
