// plugin_config.cpp: parsing of the -x plugins list.
#include "plugin_config.h"

namespace dtrace::host {

namespace {

constexpr std::string_view kBlanks = " \t";

std::string_view trim(std::string_view s) {
    const size_t first = s.find_first_not_of(kBlanks);
    if (first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(kBlanks) - first + 1);
}

} // namespace

std::vector<std::string> split_plugin_names(std::string_view list) {
    std::vector<std::string> names;
    while (!list.empty()) {
        const size_t comma = list.find(',');
        const std::string_view name = trim(list.substr(0, comma));
        if (!name.empty())
            names.emplace_back(name);
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    }
    return names;
}

} // namespace dtrace::host
