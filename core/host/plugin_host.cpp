// plugin_host.cpp: loading, selection and the session-wide plugin calls.
//
// Loading happens in two passes. The first opens every candidate (built-ins,
// -x plugin files, each *.so of the search path) far enough to read its ops
// table, because a plugin's name is only known from there. The second walks
// the candidates in order and initialises the ones selected, skipping a name
// already loaded. Modules not initialised are closed when the pass ends.
#include "plugin_host.h"

#include "plugin_loader.h"
#include "plugin_search_path.h"

#include <algorithm>
#include <set>
#include <system_error>

namespace dtrace::host {

namespace fs = std::filesystem;

namespace {

constexpr const char *kBuiltinOrigin = "built-in";

// A module opened by discovery, before it is chosen.
struct Found {
    PluginModule module;
    bool always_load; // built-in or named with -x plugin=
};

std::string origin_of(const LoadedPlugin &plugin) {
    return plugin.file().empty() ? kBuiltinOrigin : plugin.file().string();
}

std::string origin_of(const PluginModule &module) {
    return module.file.empty() ? kBuiltinOrigin : module.file.string();
}

PluginDiagnostic error(std::string message, bool requested = false) {
    return {Severity::Error, std::move(message), requested};
}

// Collects the candidates in precedence order, reporting the ones that cannot
// be opened; a file reached twice (say, listed and also in a directory) counts once.
class CandidateList {
  public:
    explicit CandidateList(std::vector<PluginDiagnostic> &diagnostics) : diagnostics_(diagnostics) {}

    void add_builtin(const dtrace_plugin_ops *ops) {
        Result<PluginModule> module = builtin_plugin(ops);
        if (!module) {
            const std::string name = ops != nullptr && ops->name != nullptr ? std::string(" '") + ops->name + "'" : "";
            diagnostics_.push_back(error("failed to load built-in plugin" + name + ": " + module.reason(), true));
            return;
        }
        found_.push_back({std::move(module.value()), true});
    }

    void add_file(const fs::path &file, bool always_load) {
        std::error_code ec;
        const fs::path absolute = fs::absolute(file, ec).lexically_normal();
        const fs::path canonical = fs::weakly_canonical(absolute, ec);
        if (!seen_.insert(ec ? absolute : canonical).second)
            return;
        Result<PluginModule> module = open_plugin(absolute);
        if (!module) {
            diagnostics_.push_back(
                error("failed to load plugin " + absolute.string() + ": " + module.reason(), always_load));
            return;
        }
        found_.push_back({std::move(module.value()), always_load});
    }

    std::vector<Found> &found() { return found_; }

  private:
    std::vector<PluginDiagnostic> &diagnostics_;
    std::vector<Found> found_;
    std::set<fs::path> seen_;
};

std::string describe_available(const std::set<std::string> &names) {
    if (names.empty())
        return "no plugins are available";
    std::string list;
    for (const std::string &name : names)
        list += (list.empty() ? "available: " : ", ") + name;
    return list;
}

// Why a found module is left out, or "" when it is to be loaded.
std::string left_out_because(const Found &f, const PluginConfig &config) {
    const bool builtin = f.module.file.empty();
    if (!builtin && (f.module.ops->capabilities & config.required_capabilities) != config.required_capabilities)
        return "it does not replay trace files (-E loads only plugins that do)";
    if (f.always_load || !config.only)
        return "";
    const std::vector<std::string> &only = *config.only;
    if (std::find(only.begin(), only.end(), f.module.ops->name) == only.end())
        return "not named in -x plugins";
    return "";
}

PluginEntry entry_of(const PluginModule &module) {
    PluginEntry entry;
    entry.name = module.ops->name;
    entry.description = module.ops->description == nullptr ? "" : module.ops->description;
    entry.version = abi::plugin_version(*module.ops);
    entry.origin = origin_of(module);
    entry.capabilities = module.ops->capabilities;
    entry.options = abi::plugin_options(*module.ops);
    entry.provider_patterns = abi::plugin_provider_patterns(*module.ops);
    entry.counter_array = abi::plugin_counter_array(*module.ops);
    return entry;
}

} // namespace

PluginHost::PluginHost(ProbeSink &sink) : sink_(sink) {}

PluginHost::~PluginHost() {
    destroy_all();
}

std::vector<PluginDiagnostic> PluginHost::load(const PluginConfig &config) {
    std::vector<PluginDiagnostic> diagnostics = discover(config);
    std::vector<PluginDiagnostic> more = initialise();
    diagnostics.insert(diagnostics.end(), more.begin(), more.end());
    return diagnostics;
}

std::vector<PluginDiagnostic> PluginHost::discover(const PluginConfig &config) {
    std::vector<PluginDiagnostic> diagnostics;
    CandidateList list(diagnostics);
    for (const dtrace_plugin_ops *ops : config.builtins)
        list.add_builtin(ops);
    for (const fs::path &file : config.files)
        list.add_file(file, true);
    if (config.discover) {
        for (const fs::path &dir : config.search_dirs)
            for (const fs::path &file : plugin_files_in(dir))
                list.add_file(file, false);
    }

    std::set<std::string> available;
    for (Found &f : list.found()) {
        available.insert(f.module.ops->name);
        catalogue_.push_back(entry_of(f.module));
        PluginEntry &entry = catalogue_.back();
        entry.reason = left_out_because(f, config);
        if (!entry.reason.empty()) {
            entry.state = PluginState::NotSelected;
            continue; // the module closes here
        }
        candidates_.push_back({std::move(f.module), f.always_load, catalogue_.size() - 1});
    }
    only_given_ = config.only.has_value();
    if (config.only) {
        for (const std::string &name : *config.only)
            if (!available.contains(name))
                diagnostics.push_back(
                    error("unknown plugin '" + name + "' in -x plugins (" + describe_available(available) + ")", true));
    }
    return diagnostics;
}

std::vector<PluginDiagnostic> PluginHost::initialise() {
    std::vector<PluginDiagnostic> diagnostics;
    for (Candidate &c : candidates_) {
        PluginEntry &entry = catalogue_[c.entry];
        const std::string origin = origin_of(c.module);
        if (const LoadedPlugin *first = find(c.module.ops->name)) {
            entry.state = PluginState::Duplicate;
            entry.reason = "already loaded from " + origin_of(*first);
            diagnostics.push_back({Severity::Note, "plugin '" + first->name() + "' in " + origin +
                                                       " ignored: already loaded from " + origin_of(*first)});
            continue;
        }
        Result<std::unique_ptr<LoadedPlugin>> plugin =
            LoadedPlugin::create(std::move(c.module), sink_, this, &targets_);
        if (!plugin) {
            entry.state = PluginState::Failed;
            entry.reason = plugin.reason();
            const std::string what = origin == kBuiltinOrigin ? "built-in plugin" : "plugin " + origin;
            diagnostics.push_back(
                error("failed to load " + what + ": " + plugin.reason(), c.always_load || only_given_));
            continue;
        }
        entry.state = PluginState::Loaded;
        plugins_.push_back(std::move(plugin.value()));
    }
    candidates_.clear();
    return diagnostics;
}

std::vector<PluginDiagnostic> PluginHost::provide_matching(const dtrace_probe_spec *spec) {
    std::vector<PluginDiagnostic> diagnostics;
    for (const auto &plugin : plugins_) {
        Status status = plugin->provide(spec);
        if (!status)
            diagnostics.push_back(
                error("plugin '" + plugin->name() + "' failed to provide probes: " + status.reason()));
    }
    return diagnostics;
}

std::vector<PluginDiagnostic> PluginHost::provide(const ProbeSpec &spec) {
    dtrace_probe_spec c_spec{};
    c_spec.struct_size = sizeof c_spec;
    c_spec.provider = spec.provider.c_str();
    c_spec.module = spec.module.c_str();
    c_spec.function = spec.function.c_str();
    c_spec.name = spec.name.c_str();
    return provide_matching(&c_spec);
}

std::vector<PluginDiagnostic> PluginHost::provide_all() {
    return provide_matching(nullptr);
}

Result<ArgType> PluginHost::arg_info(dtrace_provider_id provider, dtrace_probe_id probe, uint64_t cookie,
                                     uint32_t index) {
    LoadedPlugin *plugin = owner_of(provider);
    if (plugin == nullptr)
        return Failure{"no plugin registered provider id " + std::to_string(provider)};
    return plugin->arg_info(probe, cookie, index);
}

Status PluginHost::enable(dtrace_provider_id provider, dtrace_probe_id probe, uint64_t cookie) {
    LoadedPlugin *plugin = owner_of(provider);
    if (plugin == nullptr)
        return Failure{"no plugin registered provider id " + std::to_string(provider)};
    return plugin->enable(probe, cookie);
}

void PluginHost::disable(dtrace_provider_id provider, dtrace_probe_id probe, uint64_t cookie) {
    if (LoadedPlugin *plugin = owner_of(provider))
        plugin->disable(probe, cookie);
}

std::optional<Symbol> PluginHost::lookup_symbol(LoadedPlugin *recorder, uint32_t space, int64_t pid,
                                                uint64_t address) const {
    if (recorder != nullptr) {
        if (auto symbol = recorder->lookup_symbol(space, pid, address))
            return symbol;
    }
    // A user address means something only to the plugin that saw its process
    // (the recorder, or a plugin that fired its probes for it); when that is
    // unknown (an aggregation key), any plugin may know it.
    if (space != DTRACE_SYMBOL_KERNEL && recorder != nullptr) {
        for (LoadedPlugin *taker : timer_takers_of(recorder))
            if (auto symbol = taker->lookup_symbol(space, pid, address))
                return symbol;
        return std::nullopt;
    }
    for (const auto &plugin : plugins_) {
        if (plugin.get() == recorder)
            continue;
        if (auto symbol = plugin->lookup_symbol(space, pid, address))
            return symbol;
    }
    return std::nullopt;
}

int PluginHost::add_live_timer(LoadedPlugin &asker, dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags) {
    for (const auto &plugin : plugins_) {
        if (plugin.get() == &asker || !plugin->take_live_timer(probe, interval_ns, flags))
            continue;
        std::lock_guard lock(timers_mutex_);
        taken_timers_[probe] = {&asker, plugin.get()};
        return 0;
    }
    return -1;
}

void PluginHost::remove_live_timer(LoadedPlugin &asker, dtrace_probe_id probe) {
    LoadedPlugin *taker = nullptr;
    {
        std::lock_guard lock(timers_mutex_);
        auto it = taken_timers_.find(probe);
        if (it == taken_timers_.end() || it->second.asker != &asker)
            return;
        taker = it->second.taker;
        taken_timers_.erase(it);
    }
    taker->release_live_timer(probe);
}

Result<std::string> PluginHost::read_provider_types(const std::string &path) {
    if (!provider_types_reader_)
        return PluginPeers::read_provider_types(path);
    return provider_types_reader_(path);
}

std::vector<LoadedPlugin *> PluginHost::timer_takers_of(const LoadedPlugin *asker) const {
    std::vector<LoadedPlugin *> takers;
    std::lock_guard lock(timers_mutex_);
    for (const auto &[probe, timer] : taken_timers_)
        if (timer.asker == asker && std::find(takers.begin(), takers.end(), timer.taker) == takers.end())
            takers.push_back(timer.taker);
    return takers;
}

std::vector<PluginDiagnostic> PluginHost::start_all() {
    std::vector<PluginDiagnostic> diagnostics;
    for (const auto &plugin : plugins_) {
        Status status = plugin->start();
        if (!status)
            diagnostics.push_back(error("failed to start plugin '" + plugin->name() + "': " + status.reason()));
    }
    return diagnostics;
}

void PluginHost::stop_all() {
    for (auto it = plugins_.rbegin(); it != plugins_.rend(); ++it)
        (*it)->stop();
}

void PluginHost::destroy_all() {
    stop_all();
    {
        std::lock_guard lock(timers_mutex_);
        taken_timers_.clear();
    }
    while (!plugins_.empty())
        plugins_.pop_back();
}

std::pair<LoadedPlugin *, const PluginAction *> PluginHost::locate_action(uint32_t id) const {
    uint32_t next = 1;
    for (const auto &plugin : plugins_) {
        const std::vector<PluginAction> &actions = plugin->actions();
        if (id >= next && id - next < actions.size())
            return {plugin.get(), &actions[id - next]};
        next += static_cast<uint32_t>(actions.size());
    }
    return {nullptr, nullptr};
}

uint32_t PluginHost::find_action(std::string_view name) const {
    uint32_t id = 1;
    for (const auto &plugin : plugins_) {
        for (const PluginAction &action : plugin->actions()) {
            if (action.name == name)
                return id;
            ++id;
        }
    }
    return 0;
}

const PluginAction *PluginHost::action(uint32_t id) const {
    return locate_action(id).second;
}

Status PluginHost::consume_action(uint32_t id, dtrace_action_call call) {
    auto [plugin, action] = locate_action(id);
    if (plugin == nullptr)
        return Failure{"no plugin action has id " + std::to_string(id)};
    call.cookie = action->cookie;
    Status status = plugin->consume_action(call);
    if (!status)
        return Failure{plugin->name() + ": " + status.reason()};
    return status;
}

LoadedPlugin *PluginHost::find(std::string_view name) const {
    for (const auto &plugin : plugins_)
        if (plugin->name() == name)
            return plugin.get();
    return nullptr;
}

LoadedPlugin *PluginHost::owner_of(dtrace_provider_id provider) const {
    for (const auto &plugin : plugins_)
        if (plugin->owns(provider))
            return plugin.get();
    return nullptr;
}

TargetRegistry::Environment PluginHost::target_created(int64_t pid) {
    targets_.add(pid, DTRACE_TARGET_FROM_COMMAND, DTRACE_TARGET_CREATED);
    targets_.open_environment(pid);
    for (const auto &plugin : plugins_)
        plugin->target_changed(pid, DTRACE_TARGET_CREATED);
    return targets_.close_environment();
}

void PluginHost::target_grabbed(int64_t pid, dtrace_target_state state) {
    targets_.add(pid, DTRACE_TARGET_GRABBED, state);
    for (const auto &plugin : plugins_)
        plugin->target_changed(pid, state);
}

void PluginHost::target_changed(int64_t pid, dtrace_target_state state) {
    targets_.set_state(pid, state);
    for (const auto &plugin : plugins_)
        plugin->target_changed(pid, state);
}

Status PluginHost::set_filters(dtrace_provider_id provider, dtrace_probe_id probe, uint64_t cookie, uint32_t nfilters,
                               const dtrace_filter *filters) {
    LoadedPlugin *plugin = owner_of(provider);
    return plugin == nullptr ? Status{} : plugin->set_filters(probe, cookie, nfilters, filters);
}

// The traced programs' types first, then the kernel's (DTRACE_PLUGIN_KERNEL_TYPES).
const dtrace_type_graph *PluginHost::lookup_type(const std::string &name) {
    for (const bool kernel : {false, true})
        for (const auto &plugin : plugins_)
            if (((plugin->capabilities() & DTRACE_PLUGIN_KERNEL_TYPES) != 0) == kernel)
                if (const dtrace_type_graph *graph = plugin->lookup_type(name))
                    return graph;
    return nullptr;
}

std::optional<KernelSymbol> PluginHost::lookup_kernel_symbol(const std::string &module, const std::string &name) {
    for (const auto &plugin : plugins_)
        if (std::optional<KernelSymbol> found = plugin->lookup_kernel_symbol(module, name))
            return found;
    return std::nullopt;
}

} // namespace dtrace::host
