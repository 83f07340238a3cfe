// plugin_counters.cpp: resolving and reading the plugins' counters (see plugin_counters.h).
#include "cli/plugin_counters.h"

namespace dtrace::cli {

void PluginCounters::install(compiler::CompileOptions &options) {
    options.is_counter_array = [this](const std::string &array) { return is_counter_array(array); };
    options.resolve_counter = [this](const std::string &array, const std::string &name) {
        return resolve(array, name);
    };
}

bool PluginCounters::is_counter_array(const std::string &array) const {
    for (const host::PluginEntry &entry : host_.catalogue())
        if (entry.counter_array == array)
            return true;
    return false;
}

compiler::PluginCounter PluginCounters::resolve(const std::string &array, const std::string &name) {
    for (size_t i = 0; i < counters_.size(); ++i)
        if (counters_[i].array == array && counters_[i].name == name)
            return {static_cast<uint32_t>(i + 1), ""};
    std::string refusal; // the first plugin's that did not decline
    for (const auto &plugin : host_.plugins()) {
        if (plugin->counter_array() != array)
            continue;
        Result<uint64_t> cookie = plugin->resolve_counter(name);
        if (cookie) {
            counters_.push_back({plugin.get(), cookie.value(), array, name});
            return {static_cast<uint32_t>(counters_.size()), ""};
        }
        if (refusal.empty())
            refusal = cookie.reason();
    }
    if (!refusal.empty())
        return {0, refusal};
    // A live plugin explains a live session best; a replaying one serves only -E.
    for (const bool replaying_too : {false, true})
        for (const host::PluginEntry &entry : host_.catalogue())
            if (entry.counter_array == array && entry.state != host::PluginState::Loaded &&
                (replaying_too || (entry.capabilities & DTRACE_PLUGIN_REPLAY) == 0))
                return {0, "counters are supplied by plugin '" + entry.name + "', which is not loaded" +
                               (entry.reason.empty() ? "" : ": " + entry.reason)};
    return {0, "no loaded plugin serves these counters in this session"};
}

bool PluginCounters::read_counter(uint32_t id, const dtrace_event_ctx &ctx, uint64_t &value) const {
    if (id == 0 || id > counters_.size())
        return false;
    const Resolved &counter = counters_[id - 1];
    return counter.plugin->read_counter(counter.cookie, ctx, value);
}

} // namespace dtrace::cli
