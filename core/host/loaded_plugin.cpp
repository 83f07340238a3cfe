// loaded_plugin.cpp: calls into one plugin and the host ops it calls back.
#include "loaded_plugin.h"

#include "abi.h"
#include "host_ops.h"

#include <algorithm>

namespace dtrace::host {

namespace {

// Messages a plugin reports on the thread that is inside one of our calls
// into it. Thread-local because a plugin's own threads report concurrently,
// and those messages must go straight to the user.
struct ReportCapture {
    const LoadedPlugin *plugin;
    std::vector<std::string> messages;
    ReportCapture *outer;
};
thread_local ReportCapture *current_capture = nullptr;

std::string join(const std::vector<std::string> &messages) {
    if (messages.empty())
        return "it gave no reason";
    std::string out = messages.front();
    for (size_t i = 1; i < messages.size(); ++i)
        out += "; " + messages[i];
    return out;
}

std::string text_or_empty(const char *s) {
    return s == nullptr ? std::string() : std::string(s);
}

Result<ArgType> to_arg_type(const dtrace_arg_desc *desc, uint32_t index) {
    const std::string where = "argument " + std::to_string(index);
    if (!abi::covers(desc, abi::kArgDescV1Size))
        return Failure{where + " has a malformed descriptor"};
    if (desc->native_type == nullptr || desc->native_type[0] == '\0')
        return Failure{where + " has no type"};
    ArgType type;
    type.native_type = desc->native_type;
    type.translated_type = desc->translated_type != nullptr && desc->translated_type[0] != '\0'
                               ? std::string(desc->translated_type)
                               : type.native_type;
    type.native_index = desc->native_index;
    if (abi::covers(desc, abi::kArgDescNameSize) && desc->name != nullptr)
        type.name = desc->name;
    return type;
}

} // namespace

LoadedPlugin::LoadedPlugin(PluginModule module, ProbeSink &sink, PluginPeers *peers, TargetRegistry *targets)
    : module_(std::move(module)), sink_(sink), peers_(peers), targets_(targets), name_(module_.ops->name),
      description_(text_or_empty(module_.ops->description)) {}

template <typename Call> Status LoadedPlugin::call_plugin(Call &&call) {
    ReportCapture capture{this, {}, current_capture};
    current_capture = &capture;
    const bool succeeded = call();
    current_capture = capture.outer;
    if (!succeeded)
        return Failure{join(capture.messages)};
    for (const std::string &message : capture.messages)
        sink_.report_error(name_, message);
    return {};
}

Result<std::unique_ptr<LoadedPlugin>> LoadedPlugin::create(PluginModule module, ProbeSink &sink, PluginPeers *peers,
                                                           TargetRegistry *targets) {
    std::unique_ptr<LoadedPlugin> plugin(new LoadedPlugin(std::move(module), sink, peers, targets));
    LoadedPlugin &p = *plugin;
    Status status = p.call_plugin([&] { return p.module_.ops->init(&p.handle_, &host_ops_table, &p.state_) == 0; });
    if (!status) {
        for (dtrace_provider_id provider : p.providers_)
            sink.remove_provider(provider);
        return Failure{"plugin's init failed: " + status.reason()};
    }
    p.initialised_ = true;
    return plugin;
}

LoadedPlugin::~LoadedPlugin() {
    stop();
    if (initialised_ && module_.ops->destroy != nullptr)
        module_.ops->destroy(state_);
}

bool LoadedPlugin::owns(dtrace_provider_id provider) const {
    std::lock_guard lock(providers_mutex_);
    return std::find(providers_.begin(), providers_.end(), provider) != providers_.end();
}

Status LoadedPlugin::provide(const dtrace_probe_spec *spec) {
    if (module_.ops->provide == nullptr)
        return {};
    return call_plugin([&] { return module_.ops->provide(state_, spec) == 0; });
}

Result<ArgType> LoadedPlugin::arg_info(dtrace_probe_id probe, uint64_t cookie, uint32_t index) {
    if (module_.ops->arg_info == nullptr)
        return Failure{"the plugin does not describe probe arguments"};
    dtrace_arg_desc desc{};
    desc.struct_size = sizeof desc;
    Status status = call_plugin([&] { return module_.ops->arg_info(state_, probe, cookie, index, &desc) == 0; });
    if (!status)
        return Failure{status.reason()};
    return to_arg_type(&desc, index);
}

Status LoadedPlugin::enable(dtrace_probe_id probe, uint64_t cookie) {
    if (module_.ops->enable == nullptr)
        return {};
    return call_plugin([&] { return module_.ops->enable(state_, probe, cookie) == 0; });
}

void LoadedPlugin::disable(dtrace_probe_id probe, uint64_t cookie) {
    if (module_.ops->disable != nullptr)
        module_.ops->disable(state_, probe, cookie);
}

Status LoadedPlugin::start() {
    if (started_ || module_.ops->start == nullptr)
        return {};
    Status status = call_plugin([&] { return module_.ops->start(state_) == 0; });
    started_ = status.ok();
    return status;
}

void LoadedPlugin::stop() {
    if (started_)
        module_.ops->stop(state_);
    started_ = false;
}

std::optional<Symbol> LoadedPlugin::lookup_symbol(uint32_t space, int64_t pid, uint64_t address) {
    const dtrace_plugin_ops &ops = *module_.ops;
    if (ops.struct_size < abi::kPluginOpsLookupSymbolSize || ops.lookup_symbol == nullptr)
        return std::nullopt;
    dtrace_symbol found{};
    found.struct_size = sizeof found;
    if (ops.lookup_symbol(state_, space, pid, address, &found) != 0 || found.module == nullptr ||
        found.module[0] == '\0')
        return std::nullopt;
    Symbol symbol;
    symbol.module = found.module;
    if (found.function != nullptr && found.function[0] != '\0') {
        symbol.function = found.function;
        symbol.offset = found.offset;
    } else if (found.flags & DTRACE_SYMBOL_MODULE_OFFSET) {
        symbol.offset = found.offset;
        symbol.module_offset = true;
    }
    return symbol;
}

dtrace_provider_id LoadedPlugin::register_provider(const dtrace_provider_info *info) {
    if (!abi::covers(info, abi::kProviderInfoV1Size) || info->name == nullptr || info->name[0] == '\0') {
        report_error("register_provider: malformed provider description");
        return 0;
    }
    const Result<dtrace_provider_id> id = sink_.add_provider(*this, *info);
    if (!id) {
        report_error("cannot register provider '" + std::string(info->name) + "': " + id.reason());
        return 0;
    }
    std::lock_guard lock(providers_mutex_);
    providers_.push_back(*id);
    return *id;
}

dtrace_probe_id LoadedPlugin::register_probe(dtrace_provider_id provider, const dtrace_probe_desc *desc) {
    if (!owns(provider)) {
        report_error("register_probe: provider id " + std::to_string(provider) + " is not one of this plugin's");
        return 0;
    }
    if (!abi::covers(desc, abi::kProbeDescV1Size) || desc->name == nullptr || desc->name[0] == '\0') {
        report_error("register_probe: malformed probe description");
        return 0;
    }
    ProbeInfo probe;
    probe.module = text_or_empty(desc->module);
    probe.function = text_or_empty(desc->function);
    probe.name = desc->name;
    probe.nargs = desc->nargs;
    probe.cookie = desc->cookie;
    if (abi::covers(desc, offsetof(dtrace_probe_desc, nmodule_aliases) + sizeof desc->nmodule_aliases) &&
        desc->module_aliases != nullptr) {
        for (uint32_t i = 0; i < desc->nmodule_aliases; ++i) {
            if (desc->module_aliases[i] != nullptr && desc->module_aliases[i][0] != '\0')
                probe.module_aliases.emplace_back(desc->module_aliases[i]);
        }
    }
    probe.args_known = desc->args != nullptr || desc->nargs == 0;
    if (desc->args != nullptr) {
        for (uint32_t i = 0; i < desc->nargs; ++i) {
            Result<ArgType> type = to_arg_type(&desc->args[i], i);
            if (!type) {
                report_error("register_probe " + probe.module + ":" + probe.function + ":" + probe.name + ": " +
                             type.reason());
                return 0;
            }
            probe.args.push_back(std::move(type.value()));
        }
    }
    return sink_.add_probe(provider, probe);
}

dtrace_probe_id LoadedPlugin::lookup_probe(dtrace_provider_id provider, const char *module, const char *function,
                                           const char *name) {
    if (!owns(provider))
        return 0;
    return sink_.lookup_probe(provider, text_or_empty(module), text_or_empty(function), text_or_empty(name));
}

// The hot path: no lock and no ownership check of `probe` (the engine rejects
// ids it does not know); only what would make the engine read bad memory.
void LoadedPlugin::fire(dtrace_probe_id probe, const dtrace_event_ctx *ctx) {
    if (probe != 0 && abi::covers(ctx, abi::kEventCtxV1Size)) {
        sink_.fire(probe, *ctx);
        return;
    }
    // A plugin bug that would otherwise repeat at event rate: say it once.
    if (!bad_ctx_reported_.exchange(true))
        report_error("fire() called with probe id 0 or a malformed event context; such events are ignored");
}

int LoadedPlugin::register_action(const dtrace_action_desc *desc) {
    if (!abi::covers(desc, abi::kActionDescV1Size) || desc->name == nullptr || desc->name[0] == '\0' ||
        desc->prototype == nullptr) {
        report_error("register_action: malformed action description");
        return -1;
    }
    if (module_.ops->struct_size < abi::kPluginOpsConsumeActionSize || module_.ops->consume_action == nullptr) {
        report_error("register_action: the plugin has no consume_action entry to perform '" + std::string(desc->name) +
                     "'");
        return -1;
    }
    if (initialised_) {
        report_error("register_action: '" + std::string(desc->name) + "' must be registered during init");
        return -1;
    }
    for (const PluginAction &a : actions_) {
        if (a.name == desc->name) {
            report_error("register_action: '" + a.name + "' is already registered");
            return -1;
        }
    }
    actions_.push_back({desc->name, desc->prototype, desc->cookie});
    return 0;
}

int LoadedPlugin::register_library(const char *name, const char *d_source) {
    if (name == nullptr || name[0] == '\0' || d_source == nullptr) {
        report_error("register_library: malformed library (a name and its D source are required)");
        return -1;
    }
    if (initialised_) {
        report_error("register_library: '" + std::string(name) + "' must be registered during init");
        return -1;
    }
    if (Status added = sink_.add_library(name, d_source); !added) {
        report_error("register_library: " + added.reason());
        return -1;
    }
    return 0;
}

bool LoadedPlugin::take_live_timer(dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags) {
    const dtrace_plugin_ops &ops = *module_.ops;
    if (ops.struct_size < abi::kPluginOpsLiveTimerSize || ops.add_live_timer == nullptr)
        return false;
    return ops.add_live_timer(state_, probe, interval_ns, flags) == 0;
}

void LoadedPlugin::release_live_timer(dtrace_probe_id probe) {
    const dtrace_plugin_ops &ops = *module_.ops;
    if (ops.struct_size >= abi::kPluginOpsLiveTimerSize && ops.remove_live_timer != nullptr)
        ops.remove_live_timer(state_, probe);
}

int LoadedPlugin::add_live_timer(dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags) {
    return peers_ == nullptr ? -1 : peers_->add_live_timer(*this, probe, interval_ns, flags);
}

void LoadedPlugin::remove_live_timer(dtrace_probe_id probe) {
    if (peers_ != nullptr)
        peers_->remove_live_timer(*this, probe);
}

Status LoadedPlugin::consume_action(const dtrace_action_call &call) {
    return call_plugin([&] { return module_.ops->consume_action(state_, &call) == 0; });
}

void LoadedPlugin::target_changed(int64_t pid, dtrace_target_state state) {
    if (has_entry(abi::kPluginOpsTargetChangedSize) && module_.ops->target_changed != nullptr)
        module_.ops->target_changed(state_, pid, state);
}

Status LoadedPlugin::set_filters(dtrace_probe_id probe, uint64_t cookie, uint32_t nfilters,
                                 const dtrace_filter *filters) {
    if (!has_entry(abi::kPluginOpsSetFiltersSize) || module_.ops->set_filters == nullptr)
        return {};
    return call_plugin([&] { return module_.ops->set_filters(state_, probe, cookie, nfilters, filters) == 0; });
}

const dtrace_fastpath_ops *LoadedPlugin::fastpath_ops() const {
    if (!has_entry(abi::kPluginOpsFastpathSize) || module_.ops->fastpath == nullptr ||
        !abi::covers(module_.ops->fastpath, abi::kFastpathOpsSize))
        return nullptr;
    return module_.ops->fastpath;
}

const dtrace_type_graph *LoadedPlugin::lookup_type(const std::string &name) {
    if (!has_entry(abi::kPluginOpsLookupTypeSize) || module_.ops->lookup_type == nullptr)
        return nullptr;
    const dtrace_type_graph *graph = nullptr;
    if (module_.ops->lookup_type(state_, name.c_str(), &graph) != 0 || !abi::covers(graph, abi::kTypeGraphSize))
        return nullptr;
    return graph;
}

std::optional<KernelSymbol> LoadedPlugin::lookup_kernel_symbol(const std::string &module, const std::string &name) {
    if (!has_entry(abi::kPluginOpsLookupKernelSymbolSize) || module_.ops->lookup_kernel_symbol == nullptr)
        return std::nullopt;
    dtrace_kernel_symbol found{};
    found.struct_size = sizeof found;
    if (module_.ops->lookup_kernel_symbol(state_, module.c_str(), name.c_str(), &found) != 0)
        return std::nullopt;
    return KernelSymbol{found.address, text_or_empty(found.type)};
}

Result<uint64_t> LoadedPlugin::resolve_counter(const std::string &name) {
    if (!has_entry(abi::kPluginOpsCountersSize) || module_.ops->resolve_counter == nullptr)
        return Failure{"plugin '" + name_ + "' resolves no counters"};
    uint64_t cookie = 0;
    const char *why = nullptr;
    if (module_.ops->resolve_counter(state_, name.c_str(), &cookie, &why) != 0)
        return Failure{why != nullptr ? why : ""};
    return cookie;
}

bool LoadedPlugin::read_counter(uint64_t cookie, const dtrace_event_ctx &ctx, uint64_t &value) const {
    return has_entry(abi::kPluginOpsCountersSize) && module_.ops->read_counter != nullptr &&
           module_.ops->read_counter(state_, cookie, &ctx, &value) == 0;
}

int LoadedPlugin::get_target(uint32_t index, dtrace_target_info &out) const {
    std::optional<dtrace_target_info> found = targets_ ? targets_->get(index) : std::nullopt;
    if (!found || out.struct_size < offsetof(dtrace_target_info, flags) + sizeof out.flags)
        return -1;
    found->struct_size = out.struct_size; // the fields are all v1's: nothing lies beyond the caller's size
    out = *found;
    return 0;
}

int LoadedPlugin::read_provider_types(const char *path, const char *&out) {
    Result<std::string> types =
        peers_ == nullptr ? Failure{"this host reads no provider definitions"} : peers_->read_provider_types(path);
    provider_types_ = types ? std::move(*types) : types.reason();
    out = provider_types_.c_str();
    return types ? 0 : -1;
}

int LoadedPlugin::target_setenv(int64_t pid, const char *name, const char *value) {
    if (targets_ == nullptr || !targets_->setenv(pid, name, value)) {
        report_error(std::string("target_setenv(") + name + "): pid " + std::to_string(pid) +
                     " is not a target being created");
        return -1;
    }
    return 0;
}

void LoadedPlugin::report_error(std::string_view message) {
    if (current_capture != nullptr && current_capture->plugin == this) {
        current_capture->messages.emplace_back(message);
        return;
    }
    sink_.report_error(name_, message);
}

} // namespace dtrace::host
