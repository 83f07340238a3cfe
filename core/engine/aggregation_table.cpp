// aggregation_table.cpp: open addressing with linear probing.
#include "engine/aggregation_table.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>

namespace dtrace::engine {

namespace {
constexpr size_t kInitialSlots = 64;
constexpr size_t kSlotsPerEntry = 4;                              // the most an index a quarter full keeps per entry
constexpr size_t kShortStringCapacity = std::string().capacity(); // kept inside the string, no heap block

// What a heap block of `n` bytes takes with glibc's allocator: a size word,
// 16-byte granules, 32 bytes at least.
constexpr size_t heap_block(size_t n) {
    constexpr size_t kHeader = sizeof(size_t), kGranule = 16, kSmallest = 32;
    return n == 0 ? 0 : std::max(kSmallest, (n + kHeader + kGranule - 1) & ~(kGranule - 1));
}
} // namespace

uint64_t AggregationTable::hash(std::string_view s) {
    uint64_t h = seed(s.size());
    const char *p = s.data();
    size_t n = s.size();
    for (; n >= sizeof(uint64_t); p += sizeof(uint64_t), n -= sizeof(uint64_t)) {
        uint64_t word;
        std::memcpy(&word, p, sizeof word);
        h = mix_word(h, word);
    }
    return finish(h, tail(p, n));
}

size_t AggregationTable::entry_bytes(size_t key_size, size_t data_words) {
    const size_t key_heap = key_size > kShortStringCapacity ? heap_block(key_size + 1) : 0;
    return sizeof(Entry) + key_heap + heap_block(data_words * sizeof(int64_t)) + kSlotsPerEntry * sizeof(Slot);
}

AggregationTable::Entry &AggregationTable::insert(std::string_view key, uint64_t hash, std::vector<int64_t> data) {
    // Keep the index at most half full so that probe sequences stay short.
    if ((entries_.size() + 1) * 2 > slots_.size())
        grow();
    Entry &entry = entries_.emplace_back(Entry{std::string(key), std::move(data)});
    const size_t mask = slots_.size() - 1;
    size_t i = hash & mask;
    while (slots_[i].entry)
        i = (i + 1) & mask;
    slots_[i] = Slot{hash, &entry};
    if (key.empty())
        empty_key_ = &entry;
    return entry;
}

void AggregationTable::grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? kInitialSlots : old.size() * 2, Slot{});
    const size_t mask = slots_.size() - 1;
    for (const Slot &slot : old) {
        if (!slot.entry)
            continue;
        size_t i = slot.hash & mask;
        while (slots_[i].entry)
            i = (i + 1) & mask;
        slots_[i] = slot;
    }
}

size_t AggregationTable::erase(const std::vector<std::string> &keys) {
    const std::unordered_set<std::string_view> gone(keys.begin(), keys.end());
    std::deque<Entry> kept;
    for (Entry &e : entries_) {
        if (!gone.count(e.key))
            kept.push_back(std::move(e));
    }
    const size_t removed = entries_.size() - kept.size();
    entries_.clear();
    slots_.clear();
    empty_key_ = nullptr;
    for (Entry &e : kept) {
        const uint64_t h = hash(e.key);
        insert(e.key, h, std::move(e.data));
    }
    return removed;
}

} // namespace dtrace::engine
