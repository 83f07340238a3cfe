// plugin_options.h: the -x options plugins declare, and where they go.
//
// A plugin declares its options in its ops table (dtrace_plugin_ops.options),
// so they are known once the plugins are discovered and before any of them is
// initialised (init reads them with get_option). The session therefore sets
// dtrace's own options first, keeps the names it does not know, declares the
// options of the plugins selected to load, and then sets the kept ones.
#pragma once

#include "cli/command_line.h"
#include "engine/options.h"
#include "host/plugin_catalog.h"

#include <optional>
#include <string>
#include <vector>

namespace dtrace::cli {

// Declares the options of every selected plugin of the catalogue. Returns a
// note for each option that could not be declared because the name is taken.
std::vector<std::string> declare_plugin_options(engine::Options &options,
                                                const std::vector<host::PluginEntry> &catalogue);

// Why `name`, not an option of any plugin that loads, is not accepted: names
// the plugin found that declares it and why that plugin is not loaded, or
// nothing when no plugin declares it.
std::optional<std::string> unloaded_option_owner(const std::string &name,
                                                 const std::vector<host::PluginEntry> &catalogue);

// "loaded", "not loaded: <why>" ... for listings and messages.
std::string describe_state(const host::PluginEntry &entry);

// The option kinds as -x plugins=help shows them: "=PATH", "" for a flag...
std::string option_value_hint(dtrace_option_kind kind);

} // namespace dtrace::cli
