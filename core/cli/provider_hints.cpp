// provider_hints.cpp: which plugin supplies a missing provider, and why it is absent.
#include "cli/provider_hints.h"

#include "cli/plugin_options.h"

#include <fnmatch.h>

namespace dtrace::cli {

namespace {

// Variables that DTrace's own D libraries (procfs.d, sched.d, io.d) define,
// and the provider whose library defines them here.
struct LibraryVariable {
    const char *variable;
    const char *provider;
};
constexpr LibraryVariable kLibraryVariables[] = {
    {"curpsinfo", "proc"},
    {"curlwpsinfo", "proc"},
    {"curcpu", "sched"},
    {"fds", "io"},
};

bool supplies(const host::PluginEntry &entry, const std::string &provider) {
    for (const std::string &pattern : entry.provider_patterns)
        if (fnmatch(pattern.c_str(), provider.c_str(), 0) == 0)
            return true;
    return false;
}

} // namespace

std::optional<std::string> missing_provider_hint(const std::string &name, const engine::ProbeTable &table,
                                                 const std::vector<host::PluginEntry> &catalogue, bool replaying) {
    const engine::Provider *registered = table.find_provider(name);
    if (registered != nullptr && !registered->withdrawn)
        return std::nullopt;
    const std::string provider = "the " + name + " provider";
    // A plugin that failed or was left out explains more than one that loaded.
    for (const host::PluginEntry &entry : catalogue)
        if (entry.state != host::PluginState::Loaded && supplies(entry, name))
            return provider + " is supplied by plugin '" + entry.name + "', which is " + describe_state(entry);
    for (const host::PluginEntry &entry : catalogue) {
        if (!supplies(entry, name))
            continue;
        const std::string by = provider + " is supplied by plugin '" + entry.name + "'";
        if ((entry.capabilities & DTRACE_PLUGIN_REPLAY) != 0)
            return by + (replaying ? ", but the trace replayed has no such events"
                                   : " when it replays a trace file (-E FILE)");
        return by + ", which registered no such provider in this session";
    }
    return std::nullopt; // DTrace's message says it all
}

std::optional<std::string> library_provider_of(const std::string &variable) {
    for (const LibraryVariable &v : kLibraryVariables)
        if (variable == v.variable)
            return std::string(v.provider);
    return std::nullopt;
}

} // namespace dtrace::cli
