// plugin_config.h: which plugins a session loads.
//
// The command line describes it with three options of our own (see
// docs/plugins.md): -x plugin=PATH (repeatable) names plugin files that are
// always loaded, -x plugins=a,b restricts the discovered plugins to those
// names, -x noplugins discovers none. Built-in plugins (the core's dtrace
// and profile providers) are always loaded, first. The CLI fills this struct
// from its options; the host only reads it.
#pragma once

#include <dtrace/provider.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::host {

struct PluginConfig {
    std::vector<const dtrace_plugin_ops *> builtins; // compiled-in tables, loaded first
    std::vector<std::filesystem::path> files;        // -x plugin=PATH, in order; loaded regardless of `only`
    std::vector<std::filesystem::path> search_dirs;  // where plugins are discovered, in order of precedence
    bool discover = true;                            // false: -x noplugins
    std::optional<std::vector<std::string>> only;    // -x plugins=a,b: discovered plugins to load, by name
    // Capabilities (DTRACE_PLUGIN_*) a plugin file must declare to be loaded;
    // -E sets DTRACE_PLUGIN_REPLAY so that live plugins stay off. Built-ins always load.
    uint32_t required_capabilities = 0;
};

// The names of "-x plugins=a, b,c": comma-separated, blanks trimmed, empty
// names dropped.
std::vector<std::string> split_plugin_names(std::string_view list);

} // namespace dtrace::host
