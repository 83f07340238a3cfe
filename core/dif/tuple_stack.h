// tuple_stack.h: DIF's tuple stack — the keys of associative arrays and the
// arguments of subroutines.
//
// Each push records the register value (what a subroutine receives) and
// appends a typed encoding of the value to a key buffer (what an associative
// array is keyed by). Every entry is whole 64-bit words, so that hashing a
// key reads back exactly the words that were written:
//   word 0       kind (low byte) and payload length in bytes (upper bits)
//   words 1..n   the payload, zero-padded: an integer's 8 bytes, a
//                string's characters (without the NUL), a by-ref object
// The kind and length make the encoding self-delimiting, so keys of
// different shapes never collide. Host byte order: keys never leave the
// process. The key buffer's capacity is fixed at construction (the tuple
// depth times strsize); its memory grows as keys use it, so a large strsize
// costs only what the keys really hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace dtrace::dif {

class TupleStack {
  public:
    TupleStack(uint32_t depth, size_t key_capacity);

    void clear() {
        size_ = 0;
        key_words_ = 0;
    }
    // Each returns false (and pushes nothing) when the stack or the key buffer is full.
    bool push_value(uint64_t value);
    bool push_string(uint64_t address, std::string_view s);
    bool push_bytes(uint64_t address, const uint8_t *bytes, size_t length);
    void pop(); // no effect on an empty stack

    std::span<const uint64_t> values() const { return {values_.data(), size_}; }
    std::span<const uint64_t> key() const { return {key_.data(), key_words_}; }

  private:
    enum Kind : uint8_t { kValue = 1, kString, kBytes };
    bool push(uint64_t value, Kind kind, const void *payload, size_t length);

    std::vector<uint64_t> values_;
    std::vector<size_t> key_starts_; // in words
    size_t key_capacity_words_;
    std::vector<uint64_t> key_;
    uint32_t size_ = 0;
    size_t key_words_ = 0;
};

} // namespace dtrace::dif
