// usdt_plugin.cpp: finding, registering, arming and firing USDT probes.
#include "usdt_plugin.h"

#include <signal.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "live_plugin_setup.h"
#include "probe_fields.h"
#include "process_modules.h"
#include "semaphores.h"

namespace dtrace::usdt {

namespace {

constexpr uint32_t kMaxProbes = 1 << 14;
constexpr uint32_t kMaxSites = 1 << 16; // below UPROBE_MAX_SLOTS: a site's index is its slot
constexpr uint32_t kMaxArgs = 12;       // the stapsdt convention's

// DTrace's attributes of USDT providers (their interfaces evolve with the program).
constexpr dtrace_provider_attributes kAttributes = {
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
};

// DTrace names a probe written "gc__start" gc-start.
std::string hyphenate(const std::string &name) {
    std::string out;
    for (size_t i = 0; i < name.size(); ++i) {
        if (name[i] == '_' && i + 1 < name.size() && name[i + 1] == '_') {
            out += '-';
            ++i;
        } else {
            out += name[i];
        }
    }
    return out;
}

} // namespace

UsdtPlugin::UsdtPlugin(dtrace_host *host, const dtrace_host_ops *ops)
    : host_(host), ops_(ops), definitions_(host, ops), probes_(std::make_unique<Probe[]>(kMaxProbes)),
      sites_(std::make_unique<Site[]>(kMaxSites)) {}

UsdtPlugin::~UsdtPlugin() {
    stop();
}

int UsdtPlugin::fail(const std::string &message) {
    ops_->report_error(host_, message.c_str());
    return -1;
}

// The processes a description may name: the pid ending its provider field
// (python1234), else the session's targets.
std::vector<int64_t> UsdtPlugin::pids_for(const dtrace_probe_spec *spec) const {
    std::vector<int64_t> pids;
    const std::string provider = spec && spec->provider ? spec->provider : "";
    size_t digits = provider.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(provider[digits - 1])))
        --digits;
    if (digits > 0 && digits < provider.size() && digits + 18 >= provider.size()) {
        pids.push_back(std::stoll(provider.substr(digits)));
        return pids;
    }
    // A provider named without a pid or a pattern (proc, syscall) is no
    // process's USDT provider: no process is read, nor stopped at its library
    // loads (SIGSTOPs a proc:::signal-send clause would see), for it.
    if (!provider.empty() && provider.find_first_of("*?[\\") == std::string::npos)
        return pids;
    for (uint32_t i = 0;; ++i) {
        dtrace_target_info info{};
        info.struct_size = sizeof info;
        if (ops_->get_target == nullptr || ops_->get_target(host_, i, &info) != 0)
            break;
        if (info.state != DTRACE_TARGET_EXITED)
            pids.push_back(info.pid);
    }
    return pids;
}

// One module per file, however a process names it (the dynamic linker's
// list says /lib/x86_64-linux-gnu/libstdc++.so.6 before it maps the file,
// /proc/PID/maps the real /usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30
// after): its probes are registered once, under the real file's name.
const UsdtPlugin::Module *UsdtPlugin::module_for(const std::string &named) {
    char resolved[PATH_MAX];
    const std::string path = realpath(named.c_str(), resolved) != nullptr ? std::string(resolved) : named;
    auto known = modules_.find(path);
    if (known != modules_.end())
        return known->second.get();
    plugin_common::Result<FileProbes> probes = read_probe_sites(path);
    if (!probes)
        return nullptr; // a mapping that is not an ELF file has no probes
    auto module = std::make_unique<Module>();
    module->path = path;
    module->name = live::module_file_name(path);
    module->probes = std::move(probes.value());
    if (!module->probes.sites.empty()) {
        std::string why;
        module->image = live::stacks::ElfImage::open(path, why);
    }
    return (modules_[path] = std::move(module)).get();
}

UsdtPlugin::Process *UsdtPlugin::process_for(int64_t pid) {
    auto known = processes_.find(pid);
    if (known != processes_.end())
        return &known->second;
    std::vector<live::ProcessModule> mapped = live::mapped_modules(pid);
    if (mapped.empty())
        return nullptr; // gone, or never was: no probes
    Process &process = processes_[pid];
    std::vector<std::string> paths;
    for (const live::ProcessModule &m : mapped)
        paths.push_back(m.path);
    // A command stopped at exec maps its executable and the dynamic linker
    // only: add what the linker is about to load.
    if (mapped.front().executable && mapped.size() <= 2) {
        if (const Module *executable = module_for(mapped.front().path))
            for (const std::string &library : live::libraries_to_load(executable->probes.interpreter, executable->path))
                if (std::find(paths.begin(), paths.end(), library) == paths.end())
                    paths.push_back(library);
    }
    for (const std::string &path : paths)
        if (const Module *module = module_for(path))
            process.modules.push_back(module);
    return &process;
}

std::string UsdtPlugin::function_of(const Module &module, uint64_t address) const {
    if (!module.image)
        return "";
    std::optional<live::stacks::FunctionSymbol> symbol = module.image->function_at(address);
    return symbol ? std::string(symbol->name) : "";
}

int UsdtPlugin::provide(const dtrace_probe_spec *spec) {
    std::lock_guard guard(mutex_);
    for (int64_t pid : pids_for(spec)) {
        Process *process = process_for(pid);
        if (process != nullptr && !register_sites(pid, *process, process->modules, spec))
            return -1;
    }
    return 0;
}

bool UsdtPlugin::register_sites(int64_t pid, Process &process, const std::vector<const Module *> &modules,
                                const dtrace_probe_spec *spec) {
    const std::string suffix = std::to_string(pid);
    // The matching sites, grouped into probes.
    std::map<std::string, std::vector<Site>> found;
    std::map<std::string, std::array<std::string, 3>> names; // provider, function, name
    for (const Module *module : modules) {
        if (spec && !live::field_matches(spec->module, module->name))
            continue;
        for (const ProbeSite &site : module->probes.sites) {
            const std::string provider = site.provider + suffix;
            const std::string name = hyphenate(site.name);
            if (spec && (!live::field_matches(spec->provider, provider) || !live::field_matches(spec->name, name)))
                continue;
            const std::string function = function_of(*module, site.address);
            if (spec && !live::field_matches(spec->function, function))
                continue;
            const std::string key = provider + ":" + module->name + ":" + function + ":" + name;
            if (!placed_.insert({key, site.address}).second)
                continue;
            found[key].push_back({0, module, &site});
            names[key] = {provider, function, name};
        }
    }
    for (const auto &[key, sites] : found) {
        const auto &[provider, function, name] = names[key];
        if (!add_probe(pid, process, key, provider, sites, function, name))
            return false;
    }
    return true;
}

const std::vector<DefinedType> *UsdtPlugin::definition_types(const Module &module, const ProbeSite &site) {
    const std::vector<DefinedType> *defined = nullptr;
    const DefinitionTypes &own = module.probes.definition_types;
    if (auto found = own.find(site.provider + "\t" + site.name); found != own.end())
        defined = &found->second;
    else
        defined = definitions_.types_for(module.path, site.provider, site.name);
    if (defined && defined->size() != site.args.size()) {
        ops_->report_error(host_, ("warning: the definition of " + site.provider + ":" + site.name + " declares " +
                                   std::to_string(defined->size()) + " arguments, its notes in " + module.path +
                                   " carry " + std::to_string(site.args.size()) + ": typed by the notes")
                                      .c_str());
        return nullptr;
    }
    return defined;
}

bool UsdtPlugin::add_site(const Site &site, uint32_t &slot) {
    slot = site_count_.load(std::memory_order_relaxed);
    if (slot == kMaxSites) {
        fail("more than " + std::to_string(kMaxSites) + " USDT probe sites");
        return false;
    }
    sites_[slot] = site;
    site_count_.store(slot + 1, std::memory_order_release);
    return true;
}

bool UsdtPlugin::add_probe(int64_t pid, Process &process, const std::string &key, const std::string &provider,
                           const std::vector<Site> &sites, const std::string &function, const std::string &name) {
    auto known = probe_by_key_.find(key);
    const bool fresh = known == probe_by_key_.end();
    const uint32_t index = fresh ? probe_count_.load(std::memory_order_relaxed) : known->second;
    if (fresh && index == kMaxProbes) {
        fail("more than " + std::to_string(kMaxProbes) + " USDT probes");
        return false;
    }
    Probe &probe = probes_[index];
    for (Site site : sites) {
        site.probe = index;
        uint32_t slot = 0;
        if (!add_site(site, slot))
            return false;
        probe.sites.push_back(slot);
        if (!fresh && probe.enabled && !arm_site(slot))
            return false;
    }
    if (!fresh)
        return true;
    probe.pid = pid;
    const ProbeSite &first = *sites.front().site;
    probe.nargs = static_cast<uint32_t>(std::min<size_t>(first.args.size(), kMaxArgs));
    const std::vector<DefinedType> *defined = definition_types(*sites.front().module, first);
    for (uint32_t i = 0; i < probe.nargs; ++i)
        probe.arg_types.push_back(defined ? (*defined)[i] : DefinedType{arg_type_name(first.args[i]), ""});
    probe_by_key_[key] = index;
    probe_count_.store(index + 1, std::memory_order_release);

    dtrace_provider_id &provider_id = process.providers[provider];
    if (provider_id == 0) {
        dtrace_provider_info info{};
        info.struct_size = sizeof info;
        info.name = provider.c_str();
        info.attributes = kAttributes;
        provider_id = ops_->register_provider(host_, &info);
        if (provider_id == 0)
            return false;
    }
    std::vector<dtrace_arg_desc> descs(probe.nargs);
    for (uint32_t i = 0; i < probe.nargs; ++i) {
        descs[i].struct_size = sizeof descs[i];
        descs[i].native_type = probe.arg_types[i].native.c_str();
        if (!probe.arg_types[i].translated.empty())
            descs[i].translated_type = probe.arg_types[i].translated.c_str();
        descs[i].native_index = static_cast<uint8_t>(i);
    }
    dtrace_probe_desc desc{};
    desc.struct_size = sizeof desc;
    desc.module = sites.front().module->name.c_str();
    desc.function = function.c_str();
    desc.name = name.c_str();
    desc.nargs = probe.nargs;
    desc.args = descs.empty() ? nullptr : descs.data();
    desc.cookie = index;
    const dtrace_probe_id id = ops_->register_probe(host_, provider_id, &desc);
    probe.id.store(id, std::memory_order_release);
    return id != 0;
}

bool UsdtPlugin::ensure_loaded() {
    if (uprobes_)
        return true;
    live::Result<live::LiveOptions> options = live::read_live_options(host_, ops_);
    if (!options) {
        fail(options.error());
        return false;
    }
    options_ = options.value();
    live::BpfLoadSettings settings;
    settings.ring_bytes = live::ring_size_for(options_.ring_bytes);
    settings.settings.wakeup_watermark = settings.ring_bytes / live::kWakeupFraction;
    settings.misses = &misses_;
    live::Result<std::unique_ptr<live::UprobeAttacher>> uprobes = live::UprobeAttacher::load("usdt", settings);
    if (!uprobes) {
        fail(uprobes.error());
        return false;
    }
    uprobes_ = std::move(uprobes.value());
    return true;
}

// Configures site `index`'s slot (its argument places, string captures)
// and attaches its uprobe.
bool UsdtPlugin::arm_site(uint32_t index) {
    const Site &site = sites_[index];
    Probe &probe = probes_[site.probe];
    live_probe_config config{};
    config.armed = 1;
    config.kind = LIVE_KIND_USDT;
    config.nargs = std::min<uint32_t>(probe.nargs, LIVE_MAX_ARGS);
    config.capture_limit = live::capture_limit(host_, ops_);
    uprobe_probe_config uconfig{};
    uint32_t captures = 0;
    for (uint32_t i = 0; i < config.nargs; ++i) {
        const ArgSpec &arg = site.site->args[i];
        uconfig.usdt_args[i] = to_uprobe_arg(arg);
        // A 64-bit unsigned argument may be a char *: its string as it was at the event.
        if (captures < LIVE_MAX_CAPTURES && arg.size == 8 && !arg.is_signed && arg.kind != ArgSpec::Kind::Constant)
            config.captures[captures++] = {static_cast<uint8_t>(i), LIVE_CAPTURE_STRING, 0, 0};
    }
    // Arguments past the sixth are decoded here from the registers the
    // record's tail carries, and memory operands from the stack it copies.
    if (probe.nargs > LIVE_MAX_ARGS) {
        uconfig.flags |= UPROBE_FLAG_TAIL;
        uconfig.stack_bytes = stack_window_for(site.site->args, probe.nargs);
    }
    if (live::Status configured = uprobes_->configure(index, config, uconfig); !configured) {
        fail(configured.error());
        return false;
    }
    const live::UprobeSite uprobe{site.site->file_offset, live::uprobe_cookie(index, 0)};
    live::Result<size_t> attached = uprobes_->attach(site.module->path, probe.pid, {&uprobe, 1});
    if (!attached) {
        fail(attached.error());
        return false;
    }
    probe.attachments.push_back(attached.value());
    if (site.site->semaphore_offset != 0)
        raise_semaphore(probe, site.module, site.site->semaphore_offset);
    return true;
}

// Raises a semaphore of an enabled probe once (sites share one), or leaves
// it pending while its file is not mapped yet (a library still to load).
void UsdtPlugin::raise_semaphore(Probe &probe, const Module *module, uint64_t offset) {
    const std::pair<const Module *, uint64_t> semaphore{module, offset};
    auto known = [&](const auto &list) { return std::find(list.begin(), list.end(), semaphore) != list.end(); };
    if (known(probe.semaphores) || known(probe.pending))
        return;
    if (mapped_address(probe.pid, module->path, offset) == 0) {
        probe.pending.push_back(semaphore);
        return;
    }
    plugin_common::Status raised = adjust_semaphore(probe.pid, module->path, offset, +1);
    if (!raised) {
        fail("USDT probes of " + module->name + " will not see themselves enabled: " + raised.error());
        return;
    }
    probe.semaphores.push_back(semaphore);
}

int UsdtPlugin::enable(dtrace_probe_id, uint64_t cookie) {
    std::lock_guard guard(mutex_);
    if (cookie >= probe_count_.load(std::memory_order_acquire))
        return fail("enabling an unknown USDT probe (cookie " + std::to_string(cookie) + ")");
    Probe &probe = probes_[cookie];
    if (probe.enabled)
        return 0;
    if (!ensure_loaded())
        return -1;
    probe.enabled = true;
    for (uint32_t site : probe.sites)
        if (!arm_site(site))
            return -1;
    return 0;
}

void UsdtPlugin::lower_semaphores(Probe &probe) {
    for (const auto &[module, offset] : probe.semaphores)
        (void)adjust_semaphore(probe.pid, module->path, offset, -1); // the process may have gone
    probe.semaphores.clear();
    probe.pending.clear();
}

void UsdtPlugin::disable(dtrace_probe_id, uint64_t cookie) {
    std::lock_guard guard(mutex_);
    if (cookie >= probe_count_.load(std::memory_order_acquire) || !uprobes_)
        return;
    Probe &probe = probes_[cookie];
    if (!probe.enabled)
        return;
    for (uint32_t site : probe.sites)
        uprobes_->disarm(site);
    for (size_t attachment : probe.attachments)
        uprobes_->detach(attachment);
    probe.attachments.clear();
    lower_semaphores(probe);
    probe.enabled = false;
}

int UsdtPlugin::start() {
    if (!uprobes_ || started_)
        return 0;
    live::Result<std::unique_ptr<live::EventRing>> ring = live::start_event_ring(
        uprobes_->programs(), host_, ops_, &misses_, [this](std::span<const uint8_t> record) { deliver(record); });
    if (!ring)
        return fail(ring.error());
    ring_ = std::move(ring.value());
    started_ = true;
    std::lock_guard guard(mutex_);
    for (auto &[pid, process] : processes_) {
        if (!hook_link_map(pid, process))
            return -1;
    }
    return 0;
}

bool UsdtPlugin::hook_link_map(int64_t pid, Process &process) {
    if (process.hooked)
        return true;
    process.hooked = true;
    auto executable = std::find_if(process.modules.begin(), process.modules.end(),
                                   [](const Module *m) { return !m->probes.interpreter.empty(); });
    if (executable == process.modules.end())
        return true; // a static executable loads nothing later
    const std::string &interpreter = (*executable)->probes.interpreter;
    std::string error;
    std::unique_ptr<live::ElfFunctions> linker = live::ElfFunctions::read(interpreter, error);
    const live::ElfFunction *hook = linker ? live::link_map_hook(*linker) : nullptr;
    if (hook == nullptr)
        return true; // a linker without the hook: libraries loaded later get no probes
    uint32_t slot = 0;
    if (!add_site({Site::kLinkMapHook, nullptr, nullptr}, slot))
        return false;
    live_probe_config config{};
    config.armed = 1;
    config.kind = LIVE_KIND_UPROBE_ENTRY;
    uprobe_probe_config uconfig{};
    uconfig.flags = UPROBE_FLAG_STOP;
    if (live::Status configured = uprobes_->configure(slot, config, uconfig); !configured) {
        fail(configured.error());
        return false;
    }
    const live::UprobeSite uprobe{hook->file_offset, live::uprobe_cookie(slot, 0)};
    if (live::Result<size_t> attached = uprobes_->attach(interpreter, pid, {&uprobe, 1}); !attached) {
        fail(attached.error());
        return false;
    }
    return true;
}

void UsdtPlugin::on_link_map(int64_t pid) {
    {
        std::lock_guard guard(mutex_);
        auto known = processes_.find(pid);
        if (known != processes_.end()) {
            Process &process = known->second;
            std::vector<const Module *> added;
            for (const live::ProcessModule &mapped : live::mapped_modules(pid)) {
                const Module *module = module_for(mapped.path);
                if (module &&
                    std::find(process.modules.begin(), process.modules.end(), module) == process.modules.end())
                    added.push_back(module);
            }
            process.modules.insert(process.modules.end(), added.begin(), added.end());
            if (!added.empty())
                (void)register_sites(pid, process, added, nullptr);
        }
        const uint32_t count = probe_count_.load(std::memory_order_acquire);
        for (uint32_t i = 0; i < count; ++i) {
            Probe &probe = probes_[i];
            if (probe.pid != pid)
                continue;
            std::vector<std::pair<const Module *, uint64_t>> pending;
            pending.swap(probe.pending);
            for (const auto &[module, offset] : pending)
                raise_semaphore(probe, module, offset);
        }
    }
    kill(static_cast<pid_t>(pid), SIGCONT);
}

// Detaches first, so that the last drain sees every event there will be;
// then gives the semaphores back.
void UsdtPlugin::stop() {
    if (uprobes_)
        uprobes_->detach_all();
    if (ring_)
        ring_->stop();
    ring_.reset();
    started_ = false;
    std::lock_guard guard(mutex_);
    const uint32_t count = probe_count_.load(std::memory_order_acquire);
    for (uint32_t i = 0; i < count; ++i) {
        probes_[i].attachments.clear();
        lower_semaphores(probes_[i]);
        probes_[i].enabled = false;
    }
}

void UsdtPlugin::deliver(std::span<const uint8_t> record) {
    live::UprobeEvent event;
    if (!live::split_uprobe_event(record, event))
        return;
    live_record header;
    std::memcpy(&header, event.live.data(), sizeof header);
    if (header.slot >= site_count_.load(std::memory_order_acquire))
        return;
    const Site &site = sites_[header.slot];
    if (site.probe == Site::kLinkMapHook) {
        on_link_map(header.pid);
        return;
    }
    const Probe &probe = probes_[site.probe];
    const dtrace_probe_id id = probe.id.load(std::memory_order_acquire);
    dtrace_event_ctx ctx;
    if (id == 0 || !firing_.prepare(event.live, std::min<uint32_t>(probe.nargs, LIVE_MAX_ARGS), ctx))
        return;
    uint64_t args[kMaxArgs];
    if (probe.nargs > LIVE_MAX_ARGS) {
        std::memcpy(args, header.args, sizeof header.args);
        for (uint32_t i = LIVE_MAX_ARGS; i < probe.nargs; ++i)
            args[i] = argument_from_tail(site.site->args[i], event.tail, event.stack);
        ctx.args = args;
        ctx.nargs = probe.nargs;
    }
    ops_->fire(host_, id, &ctx);
}

} // namespace dtrace::usdt
