// probe_naming.cpp: formatting and parsing the etw probe name fields.
#include "probe_naming.h"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fnmatch.h>

namespace dtrace::etw::plugin {

namespace {

constexpr std::string_view kHexPrefix = "0x";
constexpr size_t kLevelDigits = 2;
constexpr size_t kKeywordDigits = 16;
constexpr char kSeparator = '_';
constexpr int kHexBase = 16;

// Reads "0x" and exactly `digits` hex digits from the front of text.
template <typename T> std::optional<T> take_hex(std::string_view &text, size_t digits) {
    if (text.size() < kHexPrefix.size() + digits || text.substr(0, kHexPrefix.size()) != kHexPrefix) {
        return std::nullopt;
    }
    std::string_view hex = text.substr(kHexPrefix.size(), digits);
    T value = 0;
    auto [end, error] = std::from_chars(hex.data(), hex.data() + hex.size(), value, kHexBase);
    if (error != std::errc() || end != hex.data() + hex.size()) {
        return std::nullopt;
    }
    text.remove_prefix(kHexPrefix.size() + digits);
    return value;
}

} // namespace

bool LevelKeywordFilter::passes(uint8_t event_level, uint64_t event_keyword) const {
    const bool level_ok = level == 0 || event_level == 0 || event_level <= level;
    const bool keyword_ok = keyword == 0 || event_keyword == 0 || (event_keyword & keyword) != 0;
    return level_ok && keyword_ok;
}

std::string format_filter(const LevelKeywordFilter &filter) {
    char text[sizeof "0xff_0xffffffffffffffff"];
    std::snprintf(text, sizeof text, "0x%02x_0x%016llx", filter.level, static_cast<unsigned long long>(filter.keyword));
    return text;
}

std::optional<LevelKeywordFilter> parse_filter(std::string_view text) {
    std::optional<uint8_t> level = take_hex<uint8_t>(text, kLevelDigits);
    if (!level || text.empty() || text.front() != kSeparator) {
        return std::nullopt;
    }
    text.remove_prefix(1);
    std::optional<uint64_t> keyword = take_hex<uint64_t>(text, kKeywordDigits);
    if (!keyword || !text.empty()) {
        return std::nullopt;
    }
    return LevelKeywordFilter{*level, *keyword};
}

std::string event_id_name(uint16_t id) {
    return std::to_string(id);
}

bool spec_field_matches(const char *pattern, const std::string &value) {
    return pattern == nullptr || *pattern == '\0' || fnmatch(pattern, value.c_str(), 0) == 0;
}

std::string provider_probe_name(std::string_view provider_name) {
    std::string lower(provider_name);
    for (char &c : lower) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return lower;
}

bool is_plain_name(const char *field) {
    return field != nullptr && *field != '\0' && std::strpbrk(field, "*?[\\") == nullptr;
}

bool same_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && provider_probe_name(a) == provider_probe_name(b);
}

bool usable_event_name(std::string_view name) {
    return !name.empty() && name != kGenericEvent && name.find_first_not_of("0123456789") != std::string_view::npos;
}

} // namespace dtrace::etw::plugin
