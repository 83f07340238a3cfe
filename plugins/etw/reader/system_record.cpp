// system_record.cpp: the rare part of kernel records (see system_record.h).
#include "reader/system_record.h"

namespace dtrace::etw {

RecordFault parse_kernel_extras(std::span<const uint8_t> record, size_t header_size, uint16_t version, Event &out) {
    const uint8_t *p = record.data();
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

} // namespace dtrace::etw
