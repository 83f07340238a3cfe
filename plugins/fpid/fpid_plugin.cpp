// fpid_plugin.cpp: probes, hooks, loading the agent, and firing its records.
#include "fpid_plugin.h"
#include "probe_usage.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sstream>

#include "demangle.h"
#include "live_options.h"
#include "probe_fields.h"
#include "process_library.h"
#include "prologue.h"

namespace dtrace::fpid {

namespace {

constexpr const char *kProviderPrefix = "fpid";
constexpr const char *kAgentFile = "fpid-agent/libdtrace-fpid-agent.so";
constexpr uint64_t kDefaultRingBytes = 4ull << 20;
constexpr uint32_t kDefaultFrames = 20;
constexpr auto kDrainPeriod = std::chrono::milliseconds(1);
constexpr uint64_t kNoSlot = UINT64_MAX;
constexpr const char *kEntryPoint = "_start";

// DTrace's pid provider attributes.
constexpr dtrace_provider_attributes kAttributes = {
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
};

// The agent ships beside the plugin.
std::string agent_path() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(&agent_path), &info) == 0 || info.dli_fname == nullptr)
        return kAgentFile;
    std::string self = info.dli_fname;
    size_t slash = self.rfind('/');
    return (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/" + kAgentFile;
}

uint64_t option_size(dtrace_host *host, const dtrace_host_ops *ops, const char *name, uint64_t fallback) {
    const char *text = ops->get_option(host, name);
    if (text == nullptr)
        return fallback;
    live::Result<uint64_t> size = live::parse_size(text);
    return size ? size.value() : fallback;
}

} // namespace

FpidPlugin::~FpidPlugin() {
    stop();
}

int FpidPlugin::fail(const std::string &message) {
    ops_->report_error(host_, message.c_str());
    return -1;
}

FpidPlugin::Provider *FpidPlugin::provider_for(int64_t pid, bool grabbed) {
    for (auto &p : providers_)
        if (p->pid == pid)
            return p.get();
    const std::string name = kProviderPrefix + std::to_string(pid);
    dtrace_provider_info info{};
    info.struct_size = sizeof info;
    info.name = name.c_str();
    info.attributes = kAttributes;
    info.flags = DTRACE_PROVIDER_NO_MEMORY;
    dtrace_provider_id id = ops_->register_provider(host_, &info);
    if (id == 0)
        return nullptr;
    auto provider = std::make_unique<Provider>();
    provider->pid = pid;
    provider->id = id;
    provider->process = std::make_unique<TracedProcess>(pid, grabbed);
    providers_.push_back(std::move(provider));
    return providers_.back().get();
}

int FpidPlugin::provide(const dtrace_probe_spec *spec) {
    if (spec == nullptr || spec->provider == nullptr || std::strncmp(spec->provider, kProviderPrefix, 4) != 0)
        return 0; // fpid probes are only ever made for a description that names them
    dtrace_target_info target{};
    for (uint32_t index = 0;; index++) {
        target.struct_size = sizeof target;
        if (ops_->get_target(host_, index, &target) != 0)
            break;
        if (!live::field_matches(spec->provider, kProviderPrefix + std::to_string(target.pid)) ||
            target.state == DTRACE_TARGET_EXITED)
            continue;
        Provider *provider = provider_for(target.pid, (target.flags & DTRACE_TARGET_GRABBED) != 0);
        if (provider == nullptr || provide_process(*provider, *spec) != 0)
            return -1;
        // Provided again in the libraries the process loads later.
        const std::array<std::string, 3> fields{spec->module ? spec->module : "", spec->function ? spec->function : "",
                                                spec->name ? spec->name : ""};
        if (std::find(provider->specs.begin(), provider->specs.end(), fields) == provider->specs.end())
            provider->specs.push_back(fields);
        provider->modules_provided.merge(functions_.module_paths(target.pid));
    }
    return 0;
}

int FpidPlugin::provide_process(Provider &provider, const dtrace_probe_spec &spec, const std::set<std::string> &skip) {
    live::Result<std::vector<FunctionMatch>> matched = functions_.match(provider.pid, spec.module, spec.function, skip);
    if (!matched)
        return fail(matched.error());
    size_t refused = 0;
    std::string first_refusal;
    for (const FunctionMatch &match : matched.value()) {
        const TracedFunction &f = match.function;
        if (!match.refusal.empty()) {
            // Said once (a description is provided again at each dlopen).
            if (!slot_keys_.insert(std::to_string(provider.pid) + ":" + f.module + ":" + f.name + ":refused").second)
                continue;
            const std::string why = "cannot hook " + f.module + "`" + f.name + ": " + match.refusal;
            if (!live::field_empty(spec.function) && !live::field_is_glob(spec.function))
                return fail(why);
            if (refused++ == 0)
                first_refusal = why;
            continue;
        }
        for (bool is_return : {false, true}) {
            const char *probe_name = is_return ? "return" : "entry";
            if (!live::field_matches(spec.name, probe_name))
                continue;
            // The entry point is jumped to, not called: what sits where a return
            // address would is argc, which a return hook must not replace.
            if (is_return && f.name == kEntryPoint)
                continue;
            const std::string key = std::to_string(provider.pid) + ":" + f.module + ":" + f.name + ":" + probe_name;
            if (!slot_keys_.insert(key).second)
                continue; // provided before
            dtrace_probe_desc desc{};
            desc.struct_size = sizeof desc;
            desc.module = f.module.c_str();
            desc.function = f.name.c_str();
            desc.name = probe_name;
            desc.cookie = slots_.size();
            std::vector<const char *> aliases;
            for (const std::string &alias : f.module_aliases) {
                if (alias != f.module)
                    aliases.push_back(alias.c_str());
            }
            desc.module_aliases = aliases.data();
            desc.nmodule_aliases = static_cast<uint32_t>(aliases.size());
            slots_.push_back({&provider, f, is_return});
            // An enabling may arm the probe before register_probe returns: enable() goes by the cookie.
            dtrace_probe_id id = ops_->register_probe(host_, provider.id, &desc);
            if (id == 0)
                return -1;
            slots_[desc.cookie].id = id;
        }
    }
    if (refused > 0 && ops_->get_option(host_, "quiet") == nullptr)
        ops_->report_error(
            host_, (std::to_string(refused) + " matching function(s) left out; the first: " + first_refusal).c_str());
    return 0;
}

int FpidPlugin::enable(dtrace_probe_id, uint64_t cookie) {
    if (cookie >= slots_.size())
        return fail("enabling an unknown fpid probe (cookie " + std::to_string(cookie) + ")");
    ProbeSlot &slot = slots_[cookie];
    Provider &provider = *slot.provider;
    const uint32_t flags = slot.is_return ? FPID_HOOK_RETURN : FPID_HOOK_ENTRY;
    live::Result<uint32_t> hook = provider.process->hook(slot.function, flags);
    if (!hook)
        return fail(hook.error());
    if (provider.hook_probes.size() <= hook.value())
        provider.hook_probes.resize(hook.value() + 1, {kNoSlot, kNoSlot});
    (slot.is_return ? provider.hook_probes[hook.value()].second : provider.hook_probes[hook.value()].first) = cookie;
    return 0;
}

void FpidPlugin::read_context(Provider &provider) {
    const std::string dir = "/proc/" + std::to_string(provider.pid);
    std::ifstream comm(dir + "/comm");
    std::getline(comm, provider.execname);
    std::ifstream status(dir + "/status");
    for (std::string line; std::getline(status, line);) {
        std::istringstream fields(line);
        std::string key;
        fields >> key;
        if (key == "PPid:")
            fields >> provider.ppid;
        else if (key == "Uid:")
            fields >> provider.uid;
        else if (key == "Gid:")
            fields >> provider.gid;
    }
}

// A hit records only what the probes' clauses read: a time stamp, the
// arguments, the frame-pointer walk (ustack(), ustackdepth, ucaller at
// entry). Counting needs none of them, and each costs the traced thread
// (the time stamp counter alone costs more than the rest of a hit here).
void FpidPlugin::record_what_is_read(Provider &provider) {
    dtrace_probe_usage everything{};
    everything.struct_size = sizeof everything;
    everything.flags = DTRACE_USAGE_USER_STACK | DTRACE_USAGE_ARGS | DTRACE_USAGE_TIMESTAMP | DTRACE_USAGE_VTIMESTAMP;
    for (const auto &[entry, ret] : provider.hook_probes) {
        for (uint64_t cookie : {entry, ret}) {
            if (cookie == kNoSlot)
                continue;
            const ProbeSlot &slot = slots_[cookie];
            const dtrace_probe_usage usage = plugin_common::probe_usage_of(host_, ops_, slot.id).value_or(everything);
            uint32_t flags = 0;
            if ((usage.flags & DTRACE_USAGE_USER_STACK) && !slot.is_return)
                flags |= FPID_HOOK_STACK;
            if (usage.flags & DTRACE_USAGE_ARGS)
                flags |= FPID_HOOK_ARGS;
            if (usage.flags & DTRACE_USAGE_TIMESTAMP)
                flags |= FPID_HOOK_TIME;
            if (usage.flags & DTRACE_USAGE_VTIMESTAMP)
                flags |= FPID_HOOK_VTIME;
            (void)provider.process->hook(slot.function, flags);
        }
    }
}

int FpidPlugin::init() {
    return live::register_live_libraries(host_, ops_);
}

int FpidPlugin::start() {
    if (started_)
        return 0;
    bool any = false;
    const uint64_t ring_bytes = std::bit_ceil(std::max<uint64_t>(
        std::min<uint64_t>(option_size(host_, ops_, "fpidbufsize", kDefaultRingBytes), 1ull << 30), 1ull << 16));
    const char *frames_text = ops_->get_option(host_, "ustackframes");
    const uint32_t frames = std::min<uint32_t>(
        frames_text ? static_cast<uint32_t>(std::strtoul(frames_text, nullptr, 10)) : kDefaultFrames, FPID_MAX_FRAMES);
    for (auto &provider : providers_) {
        // A description that matched nothing yet may match a library loaded later (-Z).
        if (!provider->process->has_hooks() && provider->specs.empty())
            continue;
        // -c: a library's constructor may have dlopen'ed a library the descriptions name.
        if (live::Status entered = provider->process->run_to_entry_point(); !entered)
            return fail(entered.error());
        provide_new_modules(*provider);
        record_what_is_read(*provider);
        if (!clock_)
            clock_ = std::make_unique<TscClock>();
        live::Status attached =
            provider->process->attach(agent_path(), static_cast<uint32_t>(ring_bytes), std::max<uint32_t>(frames, 2),
                                      functions_.link_map_hook(provider->pid));
        if (!attached)
            return fail(attached.error());
        read_context(*provider);
        symbols_.maps().ensure(provider->pid);
        any = true;
    }
    if (!any)
        return 0;
    started_ = true;
    stopping_ = false;
    drainer_ = std::thread([this] { drain_loop(); });
    return 0;
}

void FpidPlugin::drain_once() {
    std::lock_guard lock(drain_mutex_);
    clock_->refresh();
    for (auto &provider : providers_) {
        if (provider->process->link_map_changed())
            on_link_map(*provider);
        for (const std::string &refusal : provider->process->late_refusals())
            ops_->report_error(host_, refusal.c_str());
        const uint64_t lost = provider->process->drain([&](const Hit &hit) { fire(*provider, hit); });
        if (lost > 0)
            ops_->report_drops(host_, 0, lost, DTRACE_DROP_PRINCIPAL);
    }
}

void FpidPlugin::on_link_map(Provider &provider) {
    symbols_.maps().refresh(provider.pid); // stacks through the new libraries, named even once unloaded
    provide_new_modules(provider);
    // The probes just made were enabled as they were registered, with their clauses.
    record_what_is_read(provider);
    provider.process->answer_link_map();
}

void FpidPlugin::provide_new_modules(Provider &provider) {
    // Only in the modules not provided before: one loaded again has its
    // probes, and answer_link_map() places their hooks again.
    const std::set<std::string> provided = provider.modules_provided;
    provider.modules_provided.merge(functions_.module_paths(provider.pid));
    for (const std::array<std::string, 3> &fields : std::vector(provider.specs)) {
        dtrace_probe_spec spec{};
        spec.struct_size = sizeof spec;
        spec.module = fields[0].c_str();
        spec.function = fields[1].c_str();
        spec.name = fields[2].c_str();
        (void)provide_process(provider, spec, provided); // what fails is reported; the other libraries go on
    }
}

void FpidPlugin::drain_loop() {
    while (!stopping_.load(std::memory_order_acquire)) {
        drain_once();
        std::this_thread::sleep_for(kDrainPeriod);
    }
}

void FpidPlugin::fire(const Provider &provider, const Hit &hit) {
    if (hit.hook >= provider.hook_probes.size())
        return;
    const auto &[entry, ret] = provider.hook_probes[hit.hook];
    const uint64_t cookie = hit.is_return ? ret : entry;
    const dtrace_probe_id id = cookie == kNoSlot ? 0 : slots_[cookie].id;
    if (id == 0)
        return;
    static const uint64_t kNoArgs[FPID_MAX_ARGS] = {};
    dtrace_event_ctx ctx{};
    ctx.struct_size = sizeof ctx;
    ctx.timestamp = hit.tsc != 0 ? clock_->nanoseconds(hit.tsc) : clock_->now();
    ctx.pid = provider.pid;
    ctx.ppid = provider.ppid;
    ctx.tid = hit.tid;
    ctx.uid = provider.uid;
    ctx.gid = provider.gid;
    ctx.execname = provider.execname.c_str();
    ctx.nargs = FPID_MAX_ARGS;
    ctx.args = hit.args != nullptr ? hit.args : kNoArgs;
    ctx.user_stack = hit.nframes > 0 ? hit.frames : nullptr;
    ctx.user_stack_depth = hit.nframes;
    ctx.vtimestamp = hit.cpu_time;
    firing_record_.pid = static_cast<uint32_t>(provider.pid);
    firing_record_.tid = static_cast<uint32_t>(hit.tid);
    firing_record_.ppid = static_cast<uint32_t>(provider.ppid);
    firing_record_.uid = static_cast<uint32_t>(provider.uid);
    firing_record_.gid = static_cast<uint32_t>(provider.gid);
    firing_record_.syscall_nr = -1;
    std::strncpy(firing_record_.comm, provider.execname.c_str(), sizeof firing_record_.comm - 1);
    process_info_.begin_firing(firing_record_);
    ctx.read_memory = &FpidPlugin::read_process_records;
    ctx.reader_state = this;
    ops_->fire(host_, id, &ctx);
}

int64_t FpidPlugin::read_process_records(void *state, uint64_t address, void *buffer, size_t length) {
    return static_cast<FpidPlugin *>(state)->process_info_.read(address, buffer, length);
}

void FpidPlugin::stop() {
    if (!started_)
        return;
    for (auto &provider : providers_)
        provider->process->detach();
    stopping_ = true;
    if (drainer_.joinable())
        drainer_.join();
    drain_once(); // what the threads wrote before the hooks went
    started_ = false;
}

void FpidPlugin::target_changed(int64_t pid, uint32_t state) {
    if (state != DTRACE_TARGET_EXITED)
        return;
    for (auto &provider : providers_)
        if (provider->pid == pid)
            provider->process->set_exited();
    // What it wrote before it went fires now, before the session stops
    // taking events (a target's end is what ends a -c session).
    if (started_)
        drain_once();
}

int FpidPlugin::lookup_symbol(uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out) {
    if (!symbols_.lookup(space, pid, address, out))
        return -1;
    if (out->function != nullptr) {
        demangled_ = live::demangle(out->function); // as DTrace prints stacks
        out->function = demangled_.c_str();
    }
    return 0;
}

} // namespace dtrace::fpid
