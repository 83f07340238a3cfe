// tuple_stack.cpp: pushes append a typed encoding to the key buffer.
#include "dif/tuple_stack.h"

#include <cstring>

namespace dtrace::dif {

namespace {
constexpr size_t kTagSize = 1;
} // namespace

TupleStack::TupleStack(uint32_t depth, size_t key_capacity) : values_(depth), key_starts_(depth), key_(key_capacity) {}

void TupleStack::clear() {
    size_ = 0;
    key_used_ = 0;
}

bool TupleStack::push(uint64_t value, Tag tag, const void *header, size_t header_length, const void *bytes,
                      size_t length, bool nul) {
    if (size_ == values_.size() || length > key_.size())
        return false;
    size_t need = kTagSize + header_length + length + (nul ? 1 : 0);
    if (need > key_.size() - key_used_)
        return false;
    uint8_t *out = key_.data() + key_used_;
    *out++ = tag;
    if (header_length)
        std::memcpy(out, header, header_length);
    out += header_length;
    if (length)
        std::memcpy(out, bytes, length);
    if (nul)
        out[length] = 0;
    key_starts_[size_] = static_cast<uint32_t>(key_used_);
    values_[size_++] = value;
    key_used_ += need;
    return true;
}

bool TupleStack::push_value(uint64_t value) {
    return push(value, kValueTag, nullptr, 0, &value, sizeof value, false);
}

bool TupleStack::push_string(uint64_t address, std::string_view s) {
    return push(address, kStringTag, nullptr, 0, s.data(), s.size(), true);
}

bool TupleStack::push_bytes(uint64_t address, const uint8_t *bytes, size_t length) {
    if (length > UINT32_MAX)
        return false;
    uint32_t length32 = static_cast<uint32_t>(length);
    return push(address, kBytesTag, &length32, sizeof length32, bytes, length, false);
}

void TupleStack::pop() {
    if (size_ == 0)
        return;
    key_used_ = key_starts_[--size_];
}

} // namespace dtrace::dif
