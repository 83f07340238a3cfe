// plugin_host.h: the set of plugins of a dtrace session.
//
// The engine and the CLI talk to plugins only through this class: it finds
// and loads them (built-ins, -x plugin files, the search path), asks them for
// probes, enables probes on the plugin that owns their provider, starts and
// stops event delivery and tears everything down. A plugin that fails at any
// step is reported and skipped; the others go on (design brief, Principle 1).
//
// Threading: every method here is for the engine's control thread. Plugins
// call back through their host ops from any thread (fire() above all); those
// calls go straight to the ProbeSink, which must accept them concurrently.
// The sink must outlive the host, and nothing may use a LoadedPlugin& it was
// given by add_provider after the host is destroyed.
#pragma once

#include "loaded_plugin.h"
#include "plugin_config.h"
#include "probe_sink.h"
#include "result.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::host {

enum class Severity { Error, Note };

// One line for the user; the CLI prints it as "dtrace: <message>".
struct PluginDiagnostic {
    Severity severity = Severity::Error;
    std::string message;
    // The user asked for this plugin (built-in, -x plugin=FILE, or a name in
    // -x plugins=...): the CLI treats its failure as fatal, not as a warning.
    bool requested = false;
};

// A probe description as the user wrote it; empty fields match anything,
// the others are glob patterns the plugins match themselves.
struct ProbeSpec {
    std::string provider, module, function, name;
};

class PluginHost final : public PluginPeers {
  public:
    explicit PluginHost(ProbeSink &sink);
    ~PluginHost() override; // destroy_all()
    PluginHost(const PluginHost &) = delete;
    PluginHost &operator=(const PluginHost &) = delete;

    // Loads and initialises the plugins `config` selects, in order: built-ins,
    // -x plugin files, then the search path (each directory by file name).
    // Returns what went wrong with each plugin that could not be loaded,
    // unknown -x plugins names, and notes for duplicate names (the first
    // plugin of a name wins).
    std::vector<PluginDiagnostic> load(const PluginConfig &config);

    // Asks every plugin to register the probes matching `spec` / all probes.
    std::vector<PluginDiagnostic> provide(const ProbeSpec &spec);
    std::vector<PluginDiagnostic> provide_all();

    // Per probe, routed to the plugin that registered the provider. Failure
    // reasons are the plugin's own words; the caller names the probe.
    Result<ArgType> arg_info(dtrace_provider_id provider, dtrace_probe_id probe, uint64_t cookie, uint32_t index);
    Status enable(dtrace_provider_id provider, dtrace_probe_id probe, uint64_t cookie);
    void disable(dtrace_provider_id provider, dtrace_probe_id probe, uint64_t cookie);

    // Resolves an address (DTRACE_SYMBOL_* space) recorded by a probe of
    // `recorder`: that plugin answers first, then, for kernel addresses,
    // every other plugin in load order; for user addresses, the plugins that
    // took the recorder's live timers (they fired its probes). With no
    // recorder (an aggregation key gathered from many probes), every plugin
    // is asked, in load order.
    std::optional<Symbol> lookup_symbol(LoadedPlugin *recorder, uint32_t space, int64_t pid, uint64_t address) const;

    // A plugin's live timer (dtrace_host_ops.add_live_timer), offered to the
    // other plugins in load order; the first that takes it fires the probe.
    int add_live_timer(LoadedPlugin &asker, dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags) override;
    void remove_live_timer(LoadedPlugin &asker, dtrace_probe_id probe) override;

    // Starts event delivery in load order; a plugin that fails to start is
    // reported and the others are started all the same.
    std::vector<PluginDiagnostic> start_all();
    // Stops in reverse order; once it returns no plugin calls fire().
    void stop_all();
    // Stops, destroys and unloads every plugin, last loaded first.
    void destroy_all();

    // The actions the plugins added to D, numbered from 1 across plugins in
    // load order. find_action answers the first of a name (0: none).
    uint32_t find_action(std::string_view name) const;
    const PluginAction *action(uint32_t id) const;
    // Hands a recorded call to the plugin of action `id` (call.cookie is
    // filled in here). The failure is "<plugin>: <the plugin's reason>".
    Status consume_action(uint32_t id, dtrace_action_call call);

    const std::vector<std::unique_ptr<LoadedPlugin>> &plugins() const { return plugins_; }
    LoadedPlugin *find(std::string_view name) const;
    LoadedPlugin *owner_of(dtrace_provider_id provider) const;

  private:
    std::vector<PluginDiagnostic> provide_matching(const dtrace_probe_spec *spec);
    // The plugins that took live timers of `asker`, in the order they took them first.
    std::vector<LoadedPlugin *> timer_takers_of(const LoadedPlugin *asker) const;
    // The plugin and action numbered `id`, or {nullptr, nullptr}.
    std::pair<LoadedPlugin *, const PluginAction *> locate_action(uint32_t id) const;

    ProbeSink &sink_;
    std::vector<std::unique_ptr<LoadedPlugin>> plugins_;
    // Live timers taken: probe -> {asker, taker}. Written on the control
    // thread, read by symbol lookups on the consumer's.
    struct TakenTimer {
        LoadedPlugin *asker;
        LoadedPlugin *taker;
    };
    mutable std::mutex timers_mutex_;
    std::map<dtrace_probe_id, TakenTimer> taken_timers_;
};

} // namespace dtrace::host
