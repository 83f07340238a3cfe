// plugin_catalog.h: every plugin a session found, loaded or not.
//
// `-x plugins=help` lists it, and the CLI reads it to accept the -x options a
// plugin declares (before the plugin's init reads them) and to explain what
// is missing: an option or a provider of a plugin that was found but is not
// loaded. Entries are copies: a module that is not loaded is closed.
#pragma once

#include "abi.h"

#include <string>
#include <vector>

namespace dtrace::host {

enum class PluginState {
    Selected,    // chosen to load; not initialised yet
    Loaded,      // initialised and running in this session
    NotSelected, // left out by -x plugins, -x noplugins or -E (see `reason`)
    Failed,      // its init failed (see `reason`)
    Duplicate,   // another plugin of the same name was loaded first
};

struct PluginEntry {
    std::string name;
    std::string description;
    std::string version; // "" when the plugin gives none
    std::string origin;  // the file, or "built-in"
    uint32_t capabilities = 0;
    std::vector<abi::PluginOption> options;
    std::vector<std::string> provider_patterns; // fnmatch patterns of the providers it may register
    std::string counter_array;                  // the counters D reads as counter_array["name"]; "" none
    PluginState state = PluginState::Selected;
    std::string reason; // why it is not loaded
};

} // namespace dtrace::host
