// event_order.h: records from the ring, handed on in timestamp order.
//
// Every CPU writes to one shared BPF ring buffer, so records come out in the
// order they were reserved, which is nearly but not exactly the order of
// their timestamps: a program interrupted between reserving and stamping its
// record is overtaken. Each drain's records are copied here; those stamped
// before a horizon (the drain's start less a hold-back) are sorted by
// timestamp and released, the rest wait for the next drain, by which time
// any record stamped before them has been committed. A sort happens only
// when a batch is out of order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace dtrace::live {

class EventOrder {
  public:
    // Copies one record; `timestamp` orders it.
    void add(uint64_t timestamp, std::span<const uint8_t> record);

    // Hands every record stamped at or before `horizon` to on_record(bytes),
    // oldest first, and forgets them.
    template <typename F> void release_until(uint64_t horizon, F &&on_record) {
        size_t n = sort_and_count(horizon);
        for (size_t i = 0; i < n; ++i)
            on_record(std::span<const uint8_t>(arena_.data() + pending_[i].offset, pending_[i].size));
        forget_first(n);
    }
    template <typename F> void release_all(F &&on_record) { release_until(UINT64_MAX, on_record); }

    size_t pending() const { return pending_.size(); }

  private:
    struct Entry {
        uint64_t timestamp;
        size_t offset;
        size_t size;
    };
    // Sorts the pending entries if needed; returns how many are <= horizon.
    size_t sort_and_count(uint64_t horizon);
    void forget_first(size_t n);

    std::vector<uint8_t> arena_;
    std::vector<uint8_t> spare_;
    std::vector<Entry> pending_;
};

} // namespace dtrace::live
