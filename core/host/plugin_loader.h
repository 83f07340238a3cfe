// plugin_loader.h: from a file (or a compiled-in table) to a checked module.
//
// Loading is split from initialising on purpose: the host opens every
// candidate to learn its name (the name is in the ops table, not the file
// name), then chooses which ones to initialise (-x plugins=..., duplicates).
// A module that is not chosen is closed without any of its code but the
// entry point having run.
#pragma once

#include "loaded_plugin.h"
#include "result.h"

#include <dtrace/provider.h>

#include <filesystem>

namespace dtrace::host {

// Opens a plugin file, calls its dtrace_plugin_entry with this host's ABI
// version and checks the table it returns. The reason names no file: callers
// say "failed to load plugin FILE: reason".
Result<PluginModule> open_plugin(const std::filesystem::path &file);

// Checks a table compiled into the binary the same way.
Result<PluginModule> builtin_plugin(const dtrace_plugin_ops *ops);

} // namespace dtrace::host
