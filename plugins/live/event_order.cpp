// event_order.cpp: the hold-back sort of ring records.
#include "event_order.h"

#include <algorithm>
#include <cstring>

namespace dtrace::live {

void EventOrder::add(uint64_t timestamp, std::span<const uint8_t> record) {
    const size_t offset = arena_.size();
    arena_.insert(arena_.end(), record.begin(), record.end()); // not resize(): no zero-fill before the copy
    pending_.push_back(Entry{timestamp, offset, record.size()});
}

size_t EventOrder::sort_and_count(uint64_t horizon) {
    auto by_time = [](const Entry &a, const Entry &b) { return a.timestamp < b.timestamp; };
    if (!std::is_sorted(pending_.begin(), pending_.end(), by_time))
        std::stable_sort(pending_.begin(), pending_.end(), by_time);
    auto end = std::upper_bound(pending_.begin(), pending_.end(), horizon,
                                [](uint64_t h, const Entry &e) { return h < e.timestamp; });
    return static_cast<size_t>(end - pending_.begin());
}

// The records kept (few: those of the last hold-back interval) move to the
// spare arena, which then becomes the arena; both keep their capacity.
void EventOrder::forget_first(size_t n) {
    spare_.clear();
    for (size_t i = n; i < pending_.size(); ++i) {
        Entry &e = pending_[i];
        const size_t offset = spare_.size();
        spare_.insert(spare_.end(), arena_.begin() + static_cast<ptrdiff_t>(e.offset),
                      arena_.begin() + static_cast<ptrdiff_t>(e.offset + e.size));
        e.offset = offset;
    }
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<ptrdiff_t>(n));
    arena_.swap(spare_);
}

} // namespace dtrace::live
