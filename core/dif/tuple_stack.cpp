// tuple_stack.cpp: pushes append whole-word encodings to the key buffer.
#include "dif/tuple_stack.h"

#include <algorithm>
#include <cstring>

namespace dtrace::dif {

namespace {
constexpr size_t kWord = sizeof(uint64_t);
constexpr unsigned kLengthShift = 8;
constexpr size_t words_for(size_t bytes) {
    return (bytes + kWord - 1) / kWord;
}
} // namespace

TupleStack::TupleStack(uint32_t depth, size_t key_capacity)
    : values_(depth), key_starts_(depth), key_capacity_words_(words_for(key_capacity)) {}

bool TupleStack::push(uint64_t value, Kind kind, const void *payload, size_t length) {
    if (size_ == values_.size() || length > key_capacity_words_ * kWord)
        return false;
    const size_t words = 1 + words_for(length);
    if (words > key_capacity_words_ - key_words_)
        return false;
    if (key_words_ + words > key_.size())
        key_.resize(std::min(key_capacity_words_, std::max(key_words_ + words, 2 * key_.size())));
    uint64_t *out = key_.data() + key_words_;
    out[words - 1] = 0; // the padding of the last payload word
    out[0] = kind | static_cast<uint64_t>(length) << kLengthShift;
    if (length)
        std::memcpy(out + 1, payload, length);
    key_starts_[size_] = key_words_;
    values_[size_++] = value;
    key_words_ += words;
    return true;
}

bool TupleStack::push_value(uint64_t value) {
    return push(value, kValue, &value, sizeof value);
}

bool TupleStack::push_string(uint64_t address, std::string_view s) {
    return push(address, kString, s.data(), s.size());
}

bool TupleStack::push_bytes(uint64_t address, const uint8_t *bytes, size_t length) {
    return push(address, kBytes, bytes, length);
}

void TupleStack::pop() {
    if (size_ == 0)
        return;
    key_words_ = key_starts_[--size_];
}

} // namespace dtrace::dif
