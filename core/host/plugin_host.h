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
#include "plugin_catalog.h"
#include "plugin_config.h"
#include "probe_sink.h"
#include "result.h"
#include "target_registry.h"

#include <functional>
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
    // plugin of a name wins). The same as discover() then initialise().
    std::vector<PluginDiagnostic> load(const PluginConfig &config);
    // The first half of load(): opens every candidate far enough to read its
    // ops table and fills the catalogue (state Selected or NotSelected).
    std::vector<PluginDiagnostic> discover(const PluginConfig &config);
    // The second half: initialises the selected candidates, in order.
    std::vector<PluginDiagnostic> initialise();
    // Every plugin discover() found, in precedence order.
    const std::vector<PluginEntry> &catalogue() const { return catalogue_; }

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
    // Installed provider definitions (dtrace_host_ops.read_provider_types),
    // read by `reader` (dtrace's compiler: the host does not link it).
    void set_provider_types_reader(std::function<Result<std::string>(const std::string &path)> reader) {
        provider_types_reader_ = std::move(reader);
    }
    Result<std::string> read_provider_types(const std::string &path) override;

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

    // Target processes (-c, -p). A created one is announced to every plugin
    // (DTRACE_TARGET_CREATED) and the environment they set for it returned;
    // a grabbed one is recorded stopped. target_changed records a new state
    // and tells every plugin, in load order.
    TargetRegistry::Environment target_created(int64_t pid);
    void target_grabbed(int64_t pid, dtrace_target_state state);
    void target_changed(int64_t pid, dtrace_target_state state);

    // Hands the probe's predicate filters to the plugin that owns its provider.
    Status set_filters(dtrace_provider_id provider, dtrace_probe_id probe, uint64_t cookie, uint32_t nfilters,
                       const dtrace_filter *filters);
    // The first plugin, in load order, that describes type `name`, and its
    // graph (valid until that plugin's next lookup_type); null when none does.
    const dtrace_type_graph *lookup_type(const std::string &name);
    // The first plugin, in load order, that knows kernel symbol module`name.
    std::optional<KernelSymbol> lookup_kernel_symbol(const std::string &module, const std::string &name);

    const std::vector<std::unique_ptr<LoadedPlugin>> &plugins() const { return plugins_; }
    LoadedPlugin *find(std::string_view name) const;
    LoadedPlugin *owner_of(dtrace_provider_id provider) const;

  private:
    // A plugin found by discover(), waiting for initialise().
    struct Candidate {
        PluginModule module;
        bool always_load; // built-in or named with -x plugin=
        size_t entry;     // its row in catalogue_
    };

    std::vector<PluginDiagnostic> provide_matching(const dtrace_probe_spec *spec);
    // The plugins that took live timers of `asker`, in the order they took them first.
    std::vector<LoadedPlugin *> timer_takers_of(const LoadedPlugin *asker) const;
    // The plugin and action numbered `id`, or {nullptr, nullptr}.
    std::pair<LoadedPlugin *, const PluginAction *> locate_action(uint32_t id) const;

    ProbeSink &sink_;
    TargetRegistry targets_; // before plugins_: the plugins refer to it until destroyed
    std::vector<std::unique_ptr<LoadedPlugin>> plugins_;
    std::vector<PluginEntry> catalogue_;
    std::vector<Candidate> candidates_; // between discover() and initialise()
    bool only_given_ = false;           // discover() had -x plugins=: failures are the user's concern
    // Live timers taken: probe -> {asker, taker}. Written on the control
    // thread, read by symbol lookups on the consumer's.
    struct TakenTimer {
        LoadedPlugin *asker;
        LoadedPlugin *taker;
    };
    mutable std::mutex timers_mutex_;
    std::map<dtrace_probe_id, TakenTimer> taken_timers_;
    std::function<Result<std::string>(const std::string &path)> provider_types_reader_;
};

} // namespace dtrace::host
