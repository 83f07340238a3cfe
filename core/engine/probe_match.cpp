// probe_match.cpp: parsing probe descriptions and gmatch-style globbing.
#include "engine/probe_match.h"

#include <array>
#include <charconv>
#include <vector>

namespace dtrace::engine {

namespace {

constexpr size_t kFieldCount = 4;

// Matches one bracket expression starting after '['; advances `p` past ']'.
// Returns nullopt when the bracket is unterminated (then '[' is literal).
std::optional<bool> match_bracket(std::string_view pattern, size_t &p, char c) {
    size_t i = p;
    bool negate = false;
    if (i < pattern.size() && pattern[i] == '!') {
        negate = true;
        i++;
    }
    bool matched = false;
    bool first = true;
    while (i < pattern.size() && (first || pattern[i] != ']')) {
        first = false;
        char lo = pattern[i];
        if (lo == '\\' && i + 1 < pattern.size())
            lo = pattern[++i];
        char hi = lo;
        if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
            hi = pattern[i + 2];
            if (hi == '\\' && i + 3 < pattern.size())
                hi = pattern[++i + 2];
            i += 2;
        }
        if (lo <= c && c <= hi)
            matched = true;
        i++;
    }
    if (i >= pattern.size())
        return std::nullopt;
    p = i + 1;
    return matched != negate;
}

} // namespace

bool glob_match(std::string_view pattern, std::string_view text) {
    // Iterative matcher with single-star backtracking: linear in practice and
    // never recursive, so no pattern can blow the stack.
    size_t p = 0, t = 0;
    size_t star_p = std::string_view::npos, star_t = 0;
    while (t < text.size()) {
        if (p < pattern.size()) {
            char pc = pattern[p];
            if (pc == '*') {
                star_p = ++p;
                star_t = t;
                continue;
            }
            if (pc == '?') {
                p++;
                t++;
                continue;
            }
            if (pc == '[') {
                size_t next = p + 1;
                std::optional<bool> m = match_bracket(pattern, next, text[t]);
                if (m.has_value()) {
                    if (*m) {
                        p = next;
                        t++;
                        continue;
                    }
                } else if (text[t] == '[') {
                    p++;
                    t++;
                    continue;
                }
            } else {
                if (pc == '\\' && p + 1 < pattern.size())
                    pc = pattern[++p];
                if (pc == text[t]) {
                    p++;
                    t++;
                    continue;
                }
            }
        }
        if (star_p == std::string_view::npos)
            return false;
        p = star_p;
        t = ++star_t;
    }
    while (p < pattern.size() && pattern[p] == '*')
        p++;
    return p == pattern.size();
}

bool is_exact(const ProbeDescription &desc) {
    for (const std::string *field : {&desc.provider, &desc.module, &desc.function, &desc.name}) {
        if (field->find_first_of("*?[") != std::string::npos)
            return false;
    }
    return true;
}

Result<ProbeDescription> parse_probe_description(std::string_view text, SpecKind kind) {
    ProbeDescription desc;
    // A description made only of digits is a probe id.
    if (kind == SpecKind::Name && !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos) {
        uint32_t id = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
        if (ec == std::errc() && end == text.data() + text.size() && id != 0) {
            desc.probe_id = id;
            return desc;
        }
    }
    std::vector<std::string_view> parts;
    size_t start = 0;
    while (true) {
        size_t colon = text.find(':', start);
        parts.push_back(text.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
        if (colon == std::string_view::npos)
            break;
        start = colon + 1;
    }
    size_t last_field = static_cast<size_t>(kind);
    if (parts.size() > last_field + 1) {
        return Failure{"invalid probe description \"" + std::string(text) + "\": Overspecified probe description"};
    }
    std::array<std::string *, kFieldCount> fields = {&desc.provider, &desc.module, &desc.function, &desc.name};
    size_t first_field = last_field + 1 - parts.size();
    for (size_t i = 0; i < parts.size(); i++)
        *fields[first_field + i] = std::string(parts[i]);
    return desc;
}

} // namespace dtrace::engine
