// unmatched_hint.cpp: the case hint of an unmatched probe description.
#include "engine/unmatched_hint.h"

#include <algorithm>
#include <cctype>

namespace dtrace::engine {

namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

} // namespace

std::string unmatched_hint(const ProbeTable &probes, const ProbeDescription &desc) {
    const std::string &wanted = desc.provider;
    if (wanted.empty() || wanted.find_first_of("*?[\\") != std::string::npos)
        return "";
    if (probes.find_provider(wanted))
        return ""; // the provider is there: its probes did not match
    const Provider *other_case = nullptr;
    probes.for_each_provider([&](const Provider &p) {
        if (!other_case && !p.withdrawn && equal_ignoring_case(p.name, wanted))
            other_case = &p;
    });
    return other_case ? " (provider names are case-sensitive: did you mean " + other_case->name + "?)" : "";
}

} // namespace dtrace::engine
