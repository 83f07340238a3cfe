// provider_hints.h: why a provider or a D library variable is missing.
//
// DTrace says only "does not match any probes" and "Unknown variable name".
// Here providers come from plugins, so the likely cause is a plugin that is
// not loaded (left out, failed, or not installed): after DTrace's message the
// session prints a second line saying which plugin supplies the provider and
// why it is not there, from the plugins' declared provider patterns.
#pragma once

#include "engine/probe_table.h"
#include "host/plugin_catalog.h"

#include <optional>
#include <string>
#include <vector>

namespace dtrace::cli {

// Why provider `name` (no glob characters) has no probes here: which plugin
// supplies it and why that plugin is not loaded or registered nothing. Nothing
// when the provider is registered (the module/function/name is wrong) or no
// plugin found declares it (DTrace's own message is then all there is to say).
// `replaying`: a trace file is replayed (-E).
std::optional<std::string> missing_provider_hint(const std::string &name, const engine::ProbeTable &table,
                                                 const std::vector<host::PluginEntry> &catalogue, bool replaying);

// The provider whose D library defines `variable` (curpsinfo: proc), or
// nothing when `variable` is none of those DTrace's libraries define.
std::optional<std::string> library_provider_of(const std::string &variable);

} // namespace dtrace::cli
