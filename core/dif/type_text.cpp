// type_text.cpp: TypeDesc <-> text.
#include "dif/type_text.h"

#include <array>
#include <charconv>

namespace dtrace::dif {

namespace {

constexpr std::string_view kSizeTag = "(size ";
constexpr std::string_view kByRefTag = "by ref";
constexpr std::string_view kStringWord = "string";
constexpr std::string_view kDTypeWord = "D type";
constexpr std::string_view kUnsignedWord = "unsigned";
constexpr std::string_view kByRefPrefix = "byref:";

struct ShortName {
    std::string_view name;
    TypeDesc type;
};

using K = TypeDesc::Kind;
constexpr std::array kShortNames{
    ShortName{"int8", {K::Integer, 1, true}},    ShortName{"int16", {K::Integer, 2, true}},
    ShortName{"int32", {K::Integer, 4, true}},   ShortName{"int64", {K::Integer, 8, true}},
    ShortName{"uint8", {K::Integer, 1, false}},  ShortName{"uint16", {K::Integer, 2, false}},
    ShortName{"uint32", {K::Integer, 4, false}}, ShortName{"uint64", {K::Integer, 8, false}},
    ShortName{"void", {K::Integer, 0, false}},   ShortName{"string", {K::String, 0, false}},
};

std::optional<uint32_t> parse_u32(std::string_view s) {
    uint32_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

// The N of "(size N)".
std::optional<uint32_t> size_field(std::string_view text) {
    size_t at = text.find(kSizeTag);
    if (at == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = text.substr(at + kSizeTag.size());
    size_t close = rest.find(')');
    if (close == std::string_view::npos)
        return std::nullopt;
    return parse_u32(rest.substr(0, close));
}

bool contains(std::string_view text, std::string_view word) {
    return text.find(word) != std::string_view::npos;
}

} // namespace

std::string type_text(const TypeDesc &type) {
    std::string size = std::string(kSizeTag) + std::to_string(type.size) + ")";
    switch (type.kind) {
    case K::Integer:
        return std::string(type.is_signed ? "D type (integer) " : "D type (unsigned integer) ") + size;
    case K::String:
        return "string by ref " + size;
    case K::ByRef:
        return "D type (unknown) by ref " + size;
    }
    return "?";
}

std::optional<TypeDesc> parse_type(std::string_view text) {
    for (const ShortName &s : kShortNames)
        if (text == s.name)
            return s.type;
    if (text.starts_with(kByRefPrefix)) {
        auto size = parse_u32(text.substr(kByRefPrefix.size()));
        if (!size)
            return std::nullopt;
        return TypeDesc{K::ByRef, *size, false};
    }
    auto size = size_field(text);
    if (!size)
        return std::nullopt;
    if (text.starts_with(kStringWord))
        return TypeDesc{K::String, *size, false};
    if (!text.starts_with(kDTypeWord))
        return std::nullopt;
    if (contains(text, kByRefTag))
        return TypeDesc{K::ByRef, *size, false};
    return TypeDesc{K::Integer, *size, !contains(text, kUnsignedWord)};
}

} // namespace dtrace::dif
