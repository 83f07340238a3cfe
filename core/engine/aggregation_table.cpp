// aggregation_table.cpp: open addressing with linear probing.
#include "engine/aggregation_table.h"

#include <cstring>
#include <unordered_set>

namespace dtrace::engine {

namespace {
constexpr size_t kInitialSlots = 64;
} // namespace

uint64_t AggregationTable::hash(std::string_view s) {
    constexpr uint64_t kSeed = 0x9e3779b97f4a7c15ull, kMul1 = 0xbf58476d1ce4e5b9ull, kMul2 = 0x94d049bb133111ebull;
    uint64_t h = kSeed ^ s.size();
    const char *p = s.data();
    size_t n = s.size();
    for (; n >= sizeof(uint64_t); p += sizeof(uint64_t), n -= sizeof(uint64_t)) {
        uint64_t word;
        std::memcpy(&word, p, sizeof word);
        h = (h ^ word) * kMul1;
        h ^= h >> 31;
    }
    // The last 0-7 bytes: two overlapping words of four, or the first,
    // middle and last byte (together they cover every byte; the size is
    // in the seed).
    uint64_t tail = 0;
    if (n >= sizeof(uint32_t)) {
        uint32_t low, high;
        std::memcpy(&low, p, sizeof low);
        std::memcpy(&high, p + n - sizeof high, sizeof high);
        tail = low | uint64_t(high) << 32;
    } else if (n > 0) {
        tail = uint64_t(uint8_t(p[0])) | uint64_t(uint8_t(p[n / 2])) << 8 | uint64_t(uint8_t(p[n - 1])) << 16;
    }
    h = (h ^ tail) * kMul2;
    return h ^ (h >> 29);
}

AggregationTable::Entry *AggregationTable::find(std::string_view key, uint64_t hash) {
    if (slots_.empty())
        return nullptr;
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const Slot &slot = slots_[i];
        if (!slot.entry)
            return nullptr;
        if (slot.hash == hash && slot.entry->key == key)
            return slot.entry;
    }
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
    for (Entry &e : kept) {
        const uint64_t h = hash(e.key);
        insert(e.key, h, std::move(e.data));
    }
    return removed;
}

} // namespace dtrace::engine
