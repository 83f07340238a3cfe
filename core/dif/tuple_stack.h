// tuple_stack.h: DIF's tuple stack — the keys of associative arrays and the
// arguments of subroutines.
//
// Each push records the register value (what a subroutine receives) and
// appends a typed encoding of the value to a key buffer (what an associative
// array is keyed by). The encoding is self-delimiting, so keys of different
// shapes never collide:
//   integer  tag, 8 bytes
//   string   tag, the bytes, NUL
//   by-ref   tag, 4-byte length, the bytes
// (in host byte order: keys never leave the process).
// Capacity is fixed at construction; nothing allocates while running.
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

    void clear();
    // Each returns false (and pushes nothing) when the stack or the key buffer is full.
    bool push_value(uint64_t value);
    bool push_string(uint64_t address, std::string_view s);
    bool push_bytes(uint64_t address, const uint8_t *bytes, size_t length);
    void pop(); // no effect on an empty stack

    std::span<const uint64_t> values() const { return {values_.data(), size_}; }
    std::string_view key() const { return {reinterpret_cast<const char *>(key_.data()), key_used_}; }

  private:
    enum Tag : uint8_t { kValueTag = 1, kStringTag, kBytesTag };
    bool push(uint64_t value, Tag tag, const void *header, size_t header_length, const void *bytes, size_t length,
              bool nul);

    std::vector<uint64_t> values_;
    std::vector<uint32_t> key_starts_;
    std::vector<uint8_t> key_;
    uint32_t size_ = 0;
    size_t key_used_ = 0;
};

} // namespace dtrace::dif
