// loaded_plugin.h: one initialised plugin instance and the calls into it.
//
// A LoadedPlugin owns everything of one plugin: its code (the shared object,
// or nothing for a built-in), its ops table, the state its init returned and
// the providers it registered. It is the only place that calls through the
// plugin's ops table, so the ABI rules (optional entries, -1 meaning "see
// report_error", copying strings before the call returns) live here once.
//
// It is also the target of the dtrace_host handle the plugin gets: host ops
// arrive here (from any thread) and go on to the ProbeSink. A message the
// plugin reports on the thread that is inside one of our calls becomes the
// reason of that call's failure instead of being printed, so that "init
// failed" says why.
#pragma once

#include "abi.h"
#include "common/symbol.h"
#include "probe_sink.h"
#include "result.h"
#include "shared_object.h"
#include "target_registry.h"

#include <dtrace/provider.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::host {
class LoadedPlugin;
}

// The opaque handle of the SDK: the host hands its address to the plugin,
// which passes it back with every host op.
struct dtrace_host {
    dtrace::host::LoadedPlugin *plugin;
};

namespace dtrace::host {

// A function the plugin added to D (dtrace_action_desc, copied).
struct PluginAction {
    std::string name;
    std::string prototype;
    uint64_t cookie = 0;
};

// What one plugin may ask of the others through the host: live timers
// (dtrace_host_ops.add_live_timer). PluginHost implements it.
class PluginPeers {
  public:
    virtual ~PluginPeers() = default;
    // 0 when another plugin took the timer, -1 when none can.
    virtual int add_live_timer(LoadedPlugin &asker, dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags) = 0;
    virtual void remove_live_timer(LoadedPlugin &asker, dtrace_probe_id probe) = 0;
    // The types an installed provider definition declares
    // (dtrace_host_ops.read_provider_types), as dtrace's compiler reads it.
    virtual Result<std::string> read_provider_types(const std::string &path) {
        return Failure{"this host reads no provider definitions"};
    }
};

// What lookup_kernel_symbol answered (dtrace_kernel_symbol, copied).
struct KernelSymbol {
    uint64_t address = 0;
    std::string type; // the D spelling of its type; "" when the plugin gave none
};

// A plugin's code and validated ops table, not yet initialised.
struct PluginModule {
    std::filesystem::path file; // empty for a built-in plugin
    SharedObject library;       // keeps the code mapped; empty for a built-in
    const dtrace_plugin_ops *ops = nullptr;
};

class LoadedPlugin {
  public:
    // Calls the plugin's init with the host ops. The failure reason is what
    // the plugin reported, prefixed "plugin's init failed".
    // `peers` (may be null: no live timers) serves add_live_timer; `targets`
    // (may be null: no targets) answers get_target and target_setenv.
    static Result<std::unique_ptr<LoadedPlugin>>
    create(PluginModule module, ProbeSink &sink, PluginPeers *peers = nullptr, TargetRegistry *targets = nullptr);

    // Stops the plugin if it runs, destroys its state, then unmaps its code.
    ~LoadedPlugin();
    LoadedPlugin(const LoadedPlugin &) = delete;
    LoadedPlugin &operator=(const LoadedPlugin &) = delete;

    const std::string &name() const { return name_; }
    const std::string &description() const { return description_; }
    const std::filesystem::path &file() const { return module_.file; } // empty: built-in
    uint32_t capabilities() const { return module_.ops->capabilities; }
    bool owns(dtrace_provider_id provider) const;

    // host -> plugin. Not thread-safe among themselves: the engine calls them
    // from its control thread.
    Status provide(const dtrace_probe_spec *spec); // spec nullptr: every probe
    Result<ArgType> arg_info(dtrace_probe_id probe, uint64_t cookie, uint32_t index);
    Status enable(dtrace_probe_id probe, uint64_t cookie);
    void disable(dtrace_probe_id probe, uint64_t cookie);
    Status start();
    void stop(); // no-op unless start() succeeded
    // The plugin's lookup_symbol (DTRACE_SYMBOL_* space); nothing when the
    // plugin has no such entry or does not know the address.
    std::optional<Symbol> lookup_symbol(uint32_t space, int64_t pid, uint64_t address);
    // Performs a recorded call of one of the plugin's actions (consumer thread).
    Status consume_action(const dtrace_action_call &call);
    // Offers the plugin another plugin's live timer (its add_live_timer
    // entry); true when it took it. release_live_timer gives it back.
    bool take_live_timer(dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags);
    void release_live_timer(dtrace_probe_id probe);
    // The entries appended to the ops table; each is skipped (nothing, or
    // success) when the plugin's table predates it or leaves it NULL.
    void target_changed(int64_t pid, dtrace_target_state state);
    Status set_filters(dtrace_probe_id probe, uint64_t cookie, uint32_t nfilters, const dtrace_filter *filters);
    // The plugin's graph for type `name`, valid until its next lookup_type;
    // null when it does not know the name.
    const dtrace_type_graph *lookup_type(const std::string &name);
    std::optional<KernelSymbol> lookup_kernel_symbol(const std::string &module, const std::string &name);
    // Its counters (pmc["name"]): the array's name ("" none), a name resolved
    // to the plugin's cookie (or why not; "": the plugin declined, another
    // plugin of the same array may serve it), and a count read in probe context.
    std::string counter_array() const { return abi::plugin_counter_array(*module_.ops); }
    Result<uint64_t> resolve_counter(const std::string &name);
    bool read_counter(uint64_t cookie, const dtrace_event_ctx &ctx, uint64_t &value) const;
    // The plugin's in-kernel fast path (core/fastpath) and the state its
    // entries take; null when its table has none.
    const dtrace_fastpath_ops *fastpath_ops() const;
    void *plugin_state() const { return state_; }
    // The actions the plugin registered during init, in order.
    const std::vector<PluginAction> &actions() const { return actions_; }

    // plugin -> host (the dtrace_host_ops table lands here). Any thread.
    dtrace_provider_id register_provider(const dtrace_provider_info *info);
    dtrace_probe_id register_probe(dtrace_provider_id provider, const dtrace_probe_desc *desc);
    dtrace_probe_id lookup_probe(dtrace_provider_id provider, const char *module, const char *function,
                                 const char *name);
    void fire(dtrace_probe_id probe, const dtrace_event_ctx *ctx);
    int register_action(const dtrace_action_desc *desc);
    int register_library(const char *name, const char *d_source);
    int add_live_timer(dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags);
    void remove_live_timer(dtrace_probe_id probe);
    void report_error(std::string_view message);
    int get_target(uint32_t index, dtrace_target_info &out) const;
    int target_setenv(int64_t pid, const char *name, const char *value);
    // dtrace_host_ops.read_provider_types: `out` points into this plugin's
    // last answer.
    int read_provider_types(const char *path, const char *&out);
    ProbeSink &sink() { return sink_; }

  private:
    LoadedPlugin(PluginModule module, ProbeSink &sink, PluginPeers *peers, TargetRegistry *targets);
    // Whether the plugin's table reaches an appended entry (`size` from abi.h).
    bool has_entry(uint32_t size) const { return module_.ops->struct_size >= size; }
    // Runs a call into the plugin; on `failed`, the messages it reported on
    // this thread become the reason, otherwise they are passed on to the sink.
    template <typename Call> Status call_plugin(Call &&call);

    PluginModule module_;
    ProbeSink &sink_;
    PluginPeers *peers_;
    TargetRegistry *targets_;
    std::string name_, description_;
    dtrace_host handle_{this};
    void *state_ = nullptr;
    bool initialised_ = false;
    bool started_ = false;
    std::atomic<bool> bad_ctx_reported_{false};
    mutable std::mutex providers_mutex_;
    std::vector<dtrace_provider_id> providers_;
    std::vector<PluginAction> actions_; // registered by init() only
    std::string provider_types_;        // read_provider_types' last answer
};

} // namespace dtrace::host
