// aggregation_table.h: one aggregation's tuples and their data.
//
// A firing looks up its key tuple here, so the lookup is on the hot path:
// an open-addressing index with a power-of-two size (a mask, not a division,
// picks the slot; the full hash is compared before the key bytes) over
// entries that never move once inserted (a deque), so the data pointer a
// lookup returns stays valid while the table grows.
#pragma once

#include <cstdint>
#include <cstring>
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

    // The entry of `key`, or nullptr. Inline: a firing calls it each time.
    Entry *find(std::string_view key, uint64_t hash) {
        if (key.empty()) // an aggregation without keys (@ = count()): one entry, no probing
            return empty_key_;
        if (slots_.empty())
            return nullptr;
        const size_t mask = slots_.size() - 1;
        for (size_t i = hash & mask;; i = (i + 1) & mask) {
            const Slot &slot = slots_[i];
            if (!slot.entry)
                return nullptr;
            if (slot.hash == hash && same_key(slot.entry->key, key))
                return slot.entry;
        }
    }
    // Adds `key` (absent) with `data`; returns its entry.
    Entry &insert(std::string_view key, uint64_t hash, std::vector<int64_t> data);

    // The bytes one entry really takes, charged against aggsize: the entry,
    // its key and data as the allocator hands them out, and the index slots
    // it keeps in use (the index is between a quarter and half full).
    static size_t entry_bytes(size_t key_size, size_t data_words);

    const std::deque<Entry> &entries() const { return entries_; }
    std::deque<Entry> &entries() { return entries_; }
    // Removes the entries of `keys` (trunc()); returns how many went.
    // Invalidates every entry pointer.
    size_t erase(const std::vector<std::string> &keys);
    size_t size() const { return entries_.size(); }

    // A word-at-a-time multiply-xorshift hash: keys are a few 8-byte words.
    static uint64_t hash(std::string_view key);
    // hash() of a key of at most 8 bytes (an integer key tuple), computed
    // from the bytes themselves without a loop: `bytes` points to `size`
    // bytes, 1 <= size <= 8.
    static uint64_t hash_short(const void *bytes, size_t size) {
        if (size == sizeof(uint64_t)) {
            uint64_t word;
            std::memcpy(&word, bytes, sizeof word);
            return finish(mix_word(seed(size), word), 0);
        }
        return finish(seed(size), tail(static_cast<const char *>(bytes), size));
    }

  private:
    // The pieces of hash(), shared with hash_short() so that both give the
    // same hash for the same bytes.
    static uint64_t seed(size_t size) { return 0x9e3779b97f4a7c15ull ^ size; }
    static uint64_t mix_word(uint64_t h, uint64_t word) {
        h = (h ^ word) * 0xbf58476d1ce4e5b9ull;
        return h ^ (h >> 31);
    }
    // The last 0-7 bytes: two overlapping words of four, or the first,
    // middle and last byte (together they cover every byte; the size is in
    // the seed).
    static uint64_t tail(const char *p, size_t n) {
        if (n >= sizeof(uint32_t)) {
            uint32_t low, high;
            std::memcpy(&low, p, sizeof low);
            std::memcpy(&high, p + n - sizeof high, sizeof high);
            return low | uint64_t(high) << 32;
        }
        if (n > 0)
            return uint64_t(uint8_t(p[0])) | uint64_t(uint8_t(p[n / 2])) << 8 | uint64_t(uint8_t(p[n - 1])) << 16;
        return 0;
    }
    static uint64_t finish(uint64_t h, uint64_t tail) {
        h = (h ^ tail) * 0x94d049bb133111ebull;
        return h ^ (h >> 29);
    }
    // Keys of up to 8 bytes (the commonest: one integer) compare as one
    // word each: tail() keeps every byte of a key shorter than 8 apart.
    static bool same_key(std::string_view a, std::string_view b) {
        if (a.size() != b.size())
            return false;
        if (a.size() == sizeof(uint64_t)) {
            uint64_t x, y;
            std::memcpy(&x, a.data(), sizeof x);
            std::memcpy(&y, b.data(), sizeof y);
            return x == y;
        }
        if (a.size() < sizeof(uint64_t))
            return tail(a.data(), a.size()) == tail(b.data(), b.size());
        return std::memcmp(a.data(), b.data(), a.size()) == 0;
    }

    struct Slot {
        uint64_t hash = 0;
        Entry *entry = nullptr;
    };
    void grow();

    std::deque<Entry> entries_;
    std::vector<Slot> slots_;
    Entry *empty_key_ = nullptr; // the entry of the empty key, once inserted
};

} // namespace dtrace::engine
