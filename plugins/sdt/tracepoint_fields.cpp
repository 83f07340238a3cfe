// tracepoint_fields.cpp: typing and reading tracepoint fields.
#include "tracepoint_fields.h"

#include <algorithm>
#include <cstring>

#include "bpf/sdt_raw.h"

namespace dtrace::sdt {

namespace {

constexpr std::string_view kDataLoc = "__data_loc ";
constexpr std::string_view kRelLoc = "__rel_loc ";
constexpr uint32_t kLocOffsetMask = 0xffff; // a __data_loc word: length << 16 | offset
constexpr uint32_t kLocLengthShift = 16;
constexpr uint32_t kMaxCapture = 2048; // LIVE_CAPTURE_MAX

// Integer type names D knows (its intrinsics and <sys/types.h> typedefs).
constexpr std::string_view kDIntegers[] = {
    "char",          "short",          "int",          "long",          "long long",
    "unsigned char", "unsigned short", "unsigned int", "unsigned long", "unsigned long long",
    "signed char",   "unsigned",       "size_t",       "ssize_t",       "pid_t",
    "uid_t",         "gid_t",          "id_t",         "int8_t",        "int16_t",
    "int32_t",       "int64_t",        "uint8_t",      "uint16_t",      "uint32_t",
    "uint64_t",      "uintptr_t",      "intptr_t"};

bool is_location(std::string_view type) {
    return type.starts_with(kDataLoc) || type.starts_with(kRelLoc);
}

bool is_char_array(std::string_view type) {
    return type.starts_with("char [") || type.starts_with("const char [") || type.starts_with("unsigned char [");
}

std::string generic_integer(const live::TracepointField &field) {
    const char *base = field.size <= 1 ? "char" : field.size == 2 ? "short" : field.size == 4 ? "int" : "long";
    return field.is_signed ? std::string(base) : "unsigned " + std::string(base);
}

} // namespace

FieldKind kind_of(const live::TracepointField &field) {
    const std::string_view type = field.type;
    if (is_location(type) || is_char_array(type))
        return FieldKind::String;
    if (type.ends_with("]"))
        return FieldKind::Array;
    if (type.find('*') != std::string_view::npos)
        return FieldKind::Pointer;
    return FieldKind::Integer;
}

std::string d_type_of(const live::TracepointField &field) {
    switch (kind_of(field)) {
    case FieldKind::String:
        return "char *";
    case FieldKind::Array:
        return "uint8_t *";
    case FieldKind::Pointer:
        return "void *";
    case FieldKind::Integer:
        break;
    }
    std::string_view type = field.type;
    if (std::find(std::begin(kDIntegers), std::end(kDIntegers), type) != std::end(kDIntegers))
        return std::string(type);
    return generic_integer(field);
}

uint32_t capture_bytes(const live::TracepointFormat &format, uint32_t string_room) {
    uint32_t fixed = 0, strings = 0;
    for (const live::TracepointField &f : format.fields) {
        fixed = std::max(fixed, f.offset + f.size);
        if (is_location(f.type))
            strings += string_room;
    }
    return std::min(kMaxCapture, fixed + strings);
}

std::span<const uint8_t> RawRecord::extent(const live::TracepointField &field) const {
    if (field.offset > bytes_.size() || field.size > bytes_.size() - field.offset)
        return {};
    if (!is_location(field.type))
        return bytes_.subspan(field.offset, field.size);
    if (field.size == 0) // a location word of no bytes locates nothing
        return {};
    uint32_t word = 0;
    std::memcpy(&word, bytes_.data() + field.offset, std::min<size_t>(sizeof word, field.size));
    size_t start = word & kLocOffsetMask;
    if (std::string_view(field.type).starts_with(kRelLoc)) // relative to the field's end
        start += field.offset + field.size;
    const size_t length = word >> kLocLengthShift;
    if (start >= bytes_.size())
        return {};
    return bytes_.subspan(start, std::min(length, bytes_.size() - start));
}

uint64_t RawRecord::integer(const live::TracepointField &field) const {
    if (field.size == 0 || field.size > sizeof(uint64_t) || field.offset > bytes_.size() ||
        field.size > bytes_.size() - field.offset)
        return 0;
    uint64_t value = 0;
    std::memcpy(&value, bytes_.data() + field.offset, field.size);
    if (field.is_signed && field.size < sizeof value && field.size > 0) {
        const unsigned shift = 64 - 8 * field.size;
        value = static_cast<uint64_t>(static_cast<int64_t>(value << shift) >> shift);
    }
    return value;
}

std::string_view RawRecord::text(const live::TracepointField &field) const {
    std::span<const uint8_t> b = extent(field);
    if (b.empty())
        return {};
    const char *start = reinterpret_cast<const char *>(b.data());
    return std::string_view(start, strnlen(start, b.size()));
}

std::span<const uint8_t> RawRecord::bytes(const live::TracepointField &field) const {
    return extent(field);
}

uint64_t RawRecord::arg(const live::TracepointField &field) const {
    switch (kind_of(field)) {
    case FieldKind::String:
    case FieldKind::Array: {
        std::span<const uint8_t> b = extent(field);
        return b.empty() ? 0 : SDT_RAW_ADDRESS + static_cast<uint64_t>(b.data() - bytes_.data());
    }
    case FieldKind::Pointer:
    case FieldKind::Integer:
        break;
    }
    return integer(field);
}

} // namespace dtrace::sdt
