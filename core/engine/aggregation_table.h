// aggregation_table.h: one aggregation's tuples and their data.
//
// A firing looks up its key tuple here, so the lookup is on the hot path:
// an open-addressing index with a power-of-two size (a mask, not a division,
// picks the slot; the full hash is compared before the key bytes) over
// entries that never move once inserted (a deque), so the data pointer a
// lookup returns stays valid while the table grows.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::engine {

class AggregationTable {
  public:
    struct Entry {
        std::string key;
        std::vector<int64_t> data;
    };

    // The entry of `key`, or nullptr.
    Entry *find(std::string_view key, uint64_t hash);
    // Adds `key` (absent) with `data`; returns its entry.
    Entry &insert(std::string_view key, uint64_t hash, std::vector<int64_t> data);

    const std::deque<Entry> &entries() const { return entries_; }
    std::deque<Entry> &entries() { return entries_; }
    // Removes the entries of `keys` (trunc()); returns how many went.
    // Invalidates every entry pointer.
    size_t erase(const std::vector<std::string> &keys);
    size_t size() const { return entries_.size(); }

    // A word-at-a-time multiply-xorshift hash: keys are a few 8-byte words.
    static uint64_t hash(std::string_view key);

  private:
    struct Slot {
        uint64_t hash = 0;
        Entry *entry = nullptr;
    };
    void grow();

    std::deque<Entry> entries_;
    std::vector<Slot> slots_;
};

} // namespace dtrace::engine
