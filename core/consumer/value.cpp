// value.cpp: the record view of a Value (see value.h).
#include "consumer/value.h"

#include <algorithm>
#include <cstring>

namespace dtrace::consumer {

namespace {
constexpr uint32_t kBitsPerByte = 8;
constexpr uint32_t kMaxIntegerSize = sizeof(uint64_t);
} // namespace

uint64_t Value::as_unsigned() const {
    if (size == 0 || size >= kMaxIntegerSize)
        return bits;
    return bits & ((uint64_t{1} << (size * kBitsPerByte)) - 1);
}

int64_t Value::as_signed() const {
    if (size == 0 || size >= kMaxIntegerSize)
        return static_cast<int64_t>(bits);
    const uint32_t shift = (kMaxIntegerSize - size) * kBitsPerByte;
    return static_cast<int64_t>(bits << shift) >> shift;
}

namespace {
std::string words(std::span<const uint64_t> values) {
    std::string out(values.size() * sizeof(uint64_t), '\0');
    if (!values.empty())
        std::memcpy(out.data(), values.data(), out.size());
    return out;
}
} // namespace

Value Value::stack(std::span<const uint64_t> pcs) {
    const std::string data = words(pcs);
    return Value{Kind::Stack, static_cast<uint32_t>(data.size()), false, 0, data};
}

Value Value::user_stack(uint64_t pid, std::span<const uint64_t> pcs) {
    const std::string data = words(std::span<const uint64_t>(&pid, 1)) + words(pcs);
    return Value{Kind::UserStack, static_cast<uint32_t>(data.size()), false, 0, data};
}

size_t Value::record_size() const {
    switch (kind) {
    case Kind::Integer:
        return size > 0 && size <= kMaxIntegerSize ? size : kMaxIntegerSize;
    case Kind::String:
        return size == 0 ? bytes.size() + 1 : std::max<size_t>(size, bytes.size());
    default:
        return bytes.size();
    }
}

std::string Value::record() const {
    switch (kind) {
    case Kind::Integer: {
        const size_t n = record_size();
        std::string out(n, '\0');
        if (n == sizeof(uint8_t)) {
            const auto v = static_cast<uint8_t>(bits);
            std::memcpy(out.data(), &v, n);
        } else if (n == sizeof(uint16_t)) {
            const auto v = static_cast<uint16_t>(bits);
            std::memcpy(out.data(), &v, n);
        } else if (n == sizeof(uint32_t)) {
            const auto v = static_cast<uint32_t>(bits);
            std::memcpy(out.data(), &v, n);
        } else {
            std::memcpy(out.data(), &bits, sizeof(bits));
            out.resize(n);
        }
        return out;
    }
    case Kind::String: {
        std::string out = bytes;
        out.resize(record_size(), '\0');
        return out;
    }
    case Kind::Bytes:
    case Kind::Stack:
    case Kind::UserStack:
        return bytes;
    }
    return bytes;
}

std::optional<Value::UserAddress> Value::user_address() const {
    const bool user = symbolic == Symbolic::USym || symbolic == Symbolic::UMod || symbolic == Symbolic::UAddr;
    if (!user || bytes.size() < 2 * sizeof(uint64_t))
        return std::nullopt;
    UserAddress out;
    std::memcpy(&out.pid, bytes.data(), sizeof out.pid);
    std::memcpy(&out.address, bytes.data() + sizeof out.pid, sizeof out.address);
    return out;
}

} // namespace dtrace::consumer
