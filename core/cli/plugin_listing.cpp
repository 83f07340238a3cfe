// plugin_listing.cpp: `dtrace -x plugins=help`.
#include "cli/plugin_listing.h"

#include "cli/plugin_options.h"

#include <algorithm>
#include <string>

namespace dtrace::cli {

void print_plugin_catalogue(const std::vector<host::PluginEntry> &catalogue, FILE *out) {
    for (const host::PluginEntry &entry : catalogue) {
        std::string head = entry.name;
        if (!entry.version.empty())
            head += " " + entry.version;
        std::fprintf(out, "%s (%s): %s\n", head.c_str(), entry.origin.c_str(), describe_state(entry).c_str());
        if (!entry.description.empty())
            std::fprintf(out, "    %s\n", entry.description.c_str());
        // The options' usages in one column, their descriptions aligned after it.
        std::vector<std::string> usages;
        size_t width = 0;
        for (const host::abi::PluginOption &option : entry.options) {
            usages.push_back("-x " + option.name + option_value_hint(option.kind));
            width = std::max(width, usages.back().size());
        }
        for (size_t i = 0; i < usages.size(); ++i) {
            const host::abi::PluginOption &option = entry.options[i];
            std::string about = option.description;
            if (option.default_value)
                about += (about.empty() ? "" : " ") + ("(default: " + *option.default_value + ")");
            std::fprintf(out, "    %-*s  %s\n", int(width), usages[i].c_str(), about.c_str());
        }
    }
}

} // namespace dtrace::cli
