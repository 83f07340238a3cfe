// touch_event.h: what the etw readers' fuzzers (ETL, nettrace) read of each
// event: every byte it points to and every extended item through its
// decoder, so that the sanitizers see any out-of-bounds span.
#pragma once

#include <cstdint>
#include <span>

#include "reader/event.h"
#include "reader/extended_items.h"

namespace dtrace::etw::fuzz {

inline uint64_t touch(std::span<const uint8_t> bytes) {
    uint64_t sum = 0;
    for (uint8_t b : bytes) {
        sum += b;
    }
    return sum;
}

inline uint64_t touch_items(const Event &e) {
    uint64_t sum = 0;
    for (ExtendedItem item : ExtendedItems(e)) {
        sum += touch(item.data);
        if (auto stack = stack_trace(item)) {
            for (size_t i = 0; i < stack->depth(); ++i) {
                sum += stack->frame(i);
            }
        }
        if (auto name = provider_traits_name(item)) {
            sum += name->size();
        }
        sum += related_activity_id(item).value_or(Guid{}).data1;
        sum += instance_info(item).value_or(InstanceInfo{}).instance_id;
        sum += terminal_session_id(item).value_or(0) + extended_u64(item).value_or(0);
    }
    return sum;
}

// The sum of all an event holds (its record, payload, counters, items, time).
inline uint64_t touch_event(const Event &e) {
    return touch(e.record) + touch(e.payload) + touch(e.pmc_counters) + touch_items(e) +
           static_cast<uint64_t>(e.time_ns);
}

} // namespace dtrace::etw::fuzz
