// pid_plugin.cpp: making, arming and firing pid probes.
#include "pid_plugin.h"
#include "probe_usage.h"

#include <signal.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstring>
#include <set>

#include "demangle.h"
#include "function_code.h"
#include "live_plugin_setup.h"
#include "probe_fields.h"
#include "process_library.h"
#include "process_modules.h"
#include "ptrace/pid_backend.h"
#include "sdk_filter.h"
#include "user_registers.h"

namespace dtrace::pid {

namespace {

constexpr const char *kEntry = "entry";
constexpr const char *kReturn = "return";
constexpr uint32_t kUntypedEntryArgs = 6; // the argument registers
constexpr size_t kMaxUserFrames = 128;

// The pid provider's attributes, as DTrace's.
constexpr dtrace_provider_attributes kAttributes = {
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
};

// The pid of a provider name "pid<digits>"; 0 for anything else (a glob
// such as pid* names no process: pid probes exist only for a named one).
int64_t pid_of_provider(const char *provider) {
    if (provider == nullptr || std::strncmp(provider, "pid", 3) != 0 || provider[3] == '\0')
        return 0;
    int64_t pid = 0;
    for (const char *p = provider + 3; *p != '\0'; ++p) {
        if (!std::isdigit(static_cast<unsigned char>(*p)) || pid > (1ll << 31))
            return 0;
        pid = pid * 10 + (*p - '0');
    }
    return pid;
}

// Takes the instructions a uprobe cannot be placed on out of the
// instructions and returns (lock-prefixed ones: none of their probes is made).
void drop_unprobeable(FunctionCode &code) {
    auto refused = [&](uint32_t offset) {
        return std::binary_search(code.unprobeable.begin(), code.unprobeable.end(), offset);
    };
    std::erase_if(code.instructions, refused);
    std::erase_if(code.returns, refused);
}

std::string hex(uint32_t value) {
    char text[16];
    std::snprintf(text, sizeof text, "%x", value);
    return text;
}

} // namespace

PidPlugin::~PidPlugin() {
    stop();
}

int PidPlugin::fail(const std::string &message) {
    ops_->report_error(host_, message.c_str());
    return -1;
}

// A provider per process is made when a description names it; the live
// process types (curpsinfo, curlwpsinfo) are every live plugin's.
int PidPlugin::init() {
    if (live::register_live_libraries(host_, ops_) != 0)
        return -1;
    return live::register_user_registers_library(host_, ops_);
}

std::shared_ptr<const PidModule> PidPlugin::module_for(const std::string &path, bool executable) {
    auto known = modules_.find(path);
    if (known != modules_.end() && known->second && known->second->executable == executable)
        return known->second;
    std::string error;
    std::unique_ptr<live::ElfFunctions> functions = live::ElfFunctions::read(path, error);
    if (!functions)
        return nullptr;
    auto module = std::make_shared<PidModule>();
    module->path = path;
    module->executable = executable;
    module->file_name = live::module_file_name(path);
    module->aliases = live::module_aliases(path, functions->soname(), executable);
    module->functions = std::move(functions);
    modules_[path] = module;
    return module;
}

// Indexing a module's DWARF takes time (libc's debug file: a third of a
// second): done once, when a probe of the module needs its types.
DwarfTypes *PidPlugin::dwarf_for(const PidModule &module) {
    auto known = dwarf_.find(module.path);
    if (known == dwarf_.end()) {
        const std::string &debug = module.functions->debug_path();
        known = dwarf_.emplace(module.path, debug.empty() ? nullptr : DwarfTypes::open(debug)).first;
    }
    return known->second.get();
}

PidPlugin::Process *PidPlugin::process_for(int64_t pid, std::string &error, bool with_provider) {
    std::vector<live::ProcessModule> mapped = live::mapped_modules(pid);
    if (mapped.empty()) {
        error = "cannot trace process " + std::to_string(pid) + ": no such process";
        return nullptr;
    }
    Process &process = processes_[pid];
    if (process.provider == 0 && with_provider) {
        const std::string name = "pid" + std::to_string(pid);
        dtrace_provider_info info{};
        info.struct_size = sizeof info;
        info.name = name.c_str();
        info.attributes = kAttributes;
        process.provider = ops_->register_provider(host_, &info);
        if (process.provider == 0) {
            processes_.erase(pid);
            error = "cannot register provider " + name;
            return nullptr;
        }
    }
    // A command stopped at exec maps its executable and the dynamic linker
    // only: add what the linker is about to load.
    const std::shared_ptr<const PidModule> executable =
        mapped.front().executable ? module_for(mapped.front().path, true) : nullptr;
    if (executable && mapped.size() <= 2) {
        for (const std::string &library :
             live::libraries_to_load(executable->functions->interpreter(), executable->path)) {
            if (std::none_of(mapped.begin(), mapped.end(),
                             [&](const live::ProcessModule &m) { return m.path == library; }))
                mapped.push_back({library, false});
        }
    }
    process.modules.clear();
    for (const live::ProcessModule &m : mapped) {
        if (std::shared_ptr<const PidModule> module = module_for(m.path, m.executable))
            process.modules.push_back(std::move(module));
    }
    return &process;
}

int PidPlugin::provide(const dtrace_probe_spec *spec) {
    if (spec == nullptr)
        return 0; // pid probes are made for a process a description names, never listed ahead
    const int64_t pid = pid_of_provider(spec->provider);
    if (pid == 0)
        return 0;
    std::lock_guard guard(mutex_);
    std::string error;
    Process *process = process_for(pid, error);
    if (process == nullptr)
        return fail(error);
    std::array<std::string, 3> fields{spec->module ? spec->module : "", spec->function ? spec->function : "",
                                      spec->name ? spec->name : ""};
    if (std::find(process->specs.begin(), process->specs.end(), fields) == process->specs.end())
        process->specs.push_back(fields);
    // A process grabbed while running: its mappings now, for its stacks.
    stacks_.maps().ensure(pid);
    for (const std::shared_ptr<const PidModule> &module : process->modules) {
        if (!provide_module(pid, *process, *module, module, *spec))
            return -1;
    }
    return 0;
}

bool PidPlugin::provide_module(int64_t pid, Process &process, const PidModule &module,
                               const std::shared_ptr<const PidModule> &shared, const dtrace_probe_spec &spec) {
    if (std::none_of(module.aliases.begin(), module.aliases.end(),
                     [&](const std::string &alias) { return live::field_matches(spec.module, alias); }))
        return true;
    const bool one_offset = !live::field_empty(spec.name) && !live::field_is_glob(spec.name) &&
                            std::strcmp(spec.name, kEntry) != 0 && std::strcmp(spec.name, kReturn) != 0;
    for (const live::ElfFunction &function : module.functions->functions()) {
        bool named = live::field_matches(spec.function, function.name);
        if (!named && !live::field_empty(spec.function) && !live::field_is_glob(spec.function))
            named =
                std::find(function.aliases.begin(), function.aliases.end(), spec.function) != function.aliases.end();
        if (!named)
            continue;
        const std::string name = live::registered_function_name(spec.function, function.name);
        const std::string &module_name = module.file_name; // a description's alias (libc, a.out) matches it
        const bool wants_return = live::field_matches(spec.name, kReturn);
        const bool wants_offsets = one_offset || live::field_empty(spec.name) || live::field_is_glob(spec.name);
        const std::vector<uint8_t> bytes =
            function.size != 0
                ? module.functions->code(function)
                : unsized_function_code(module.functions->code(function, kMaxUnsizedFunction), function.address);
        if (live::field_matches(spec.name, kEntry)) {
            // A glob passes over a function the kernel cannot probe; naming it fails, saying why.
            // A symbol without a size whose end cannot be found has no code to check: the
            // kernel decides, and a link it refuses is made again site by site.
            if (std::optional<std::string> refused = bytes.empty() ? std::nullopt : uprobe_refusal(bytes)) {
                if (!live::field_is_glob(spec.function) && !live::field_empty(spec.function)) {
                    fail("cannot make probe " + module.file_name + ":" + name + ":entry: its first instruction has " +
                         *refused + ", where the kernel cannot place a uprobe");
                    return false;
                }
            } else if (!add_probe(pid, process, shared, module_name, function, name, ProbeKind::Entry, 0, {})) {
                return false;
            }
        }
        if (!wants_return && !wants_offsets)
            continue;
        std::optional<FunctionCode> code = decode_function(bytes, function.address);
        if (code)
            drop_unprobeable(*code);
        if (wants_return && code && !code->returns.empty() &&
            !add_probe(pid, process, shared, module_name, function, name, ProbeKind::Return, 0, code->returns))
            return false;
        if (one_offset) {
            char *end = nullptr;
            const unsigned long offset = std::strtoul(spec.name, &end, 16);
            if (*end != '\0')
                continue; // a name that is no probe of ours
            if (!code || !std::binary_search(code->instructions.begin(), code->instructions.end(), offset)) {
                fail("cannot make probe " + module.file_name + ":" + name + ":" + spec.name + ": offset 0x" +
                     hex(static_cast<uint32_t>(offset)) + " is not the start of an instruction of " + function.name +
                     " where the kernel can place a uprobe");
                return false;
            }
            if (!add_probe(pid, process, shared, module_name, function, name, ProbeKind::Offset,
                           static_cast<uint32_t>(offset), {}))
                return false;
        } else if (wants_offsets && code) {
            for (uint32_t offset : code->instructions) {
                if (live::field_matches(spec.name, hex(offset)) &&
                    !add_probe(pid, process, shared, module_name, function, name, ProbeKind::Offset, offset, {}))
                    return false;
            }
        }
    }
    return true;
}

bool PidPlugin::add_probe(int64_t pid, Process &process, const std::shared_ptr<const PidModule> &module,
                          const std::string &module_name, const live::ElfFunction &function,
                          const std::string &function_name, ProbeKind kind, uint32_t offset,
                          std::vector<uint32_t> returns) {
    const std::string probe_name = kind == ProbeKind::Entry    ? kEntry
                                   : kind == ProbeKind::Return ? kReturn
                                                               : hex(offset);
    const std::string key = std::to_string(pid) + ":" + module_name + ":" + function_name + ":" + probe_name;
    bool created = false;
    std::optional<uint32_t> index = slots_.slot_for(key, created);
    if (!index) {
        fail("more than " + std::to_string(UPROBE_MAX_SLOTS) + " pid probes");
        return false;
    }
    if (!created)
        return true;
    ProbeSlot &slot = *slots_.get(*index);
    slot.pid = pid;
    slot.module = module;
    slot.function = &function;
    slot.kind = kind;
    slot.offset = offset;
    slot.returns = std::move(returns);
    slot.nargs = kind == ProbeKind::Entry ? kUntypedEntryArgs : kind == ProbeKind::Return ? 2 : 0;
    DwarfTypes *types = kind != ProbeKind::Offset ? dwarf_for(*module) : nullptr;
    if (std::optional<Signature> signature = types ? types->signature(function.name) : std::nullopt) {
        if (kind == ProbeKind::Entry) {
            slot.arg_types = signature->params;
            slot.arg_types.resize(std::min<size_t>(slot.arg_types.size(), LIVE_MAX_ARGS + UPROBE_STACK_ARGS));
            slot.nargs = static_cast<uint32_t>(slot.arg_types.size());
        } else {
            slot.arg_types = {"uint64_t", signature->result == "void" ? "uint64_t" : signature->result};
        }
    }
    dtrace_probe_desc desc{};
    desc.struct_size = sizeof desc;
    desc.module = module_name.c_str();
    desc.function = function_name.c_str();
    desc.name = probe_name.c_str();
    desc.nargs = slot.nargs;
    desc.args = nullptr; // arg_info, when a program or -lv needs them
    desc.cookie = *index;
    std::vector<const char *> aliases;
    for (const std::string &alias : module->aliases) {
        if (alias != module_name)
            aliases.push_back(alias.c_str());
    }
    desc.module_aliases = aliases.data();
    desc.nmodule_aliases = static_cast<uint32_t>(aliases.size());
    const dtrace_probe_id id = ops_->register_probe(host_, process.provider, &desc);
    if (id == 0)
        return false;
    slot.id.store(id, std::memory_order_release);
    return true;
}

int PidPlugin::arg_info(dtrace_probe_id, uint64_t cookie, uint32_t index, dtrace_arg_desc *out) {
    const ProbeSlot *slot = slots_.get(static_cast<uint32_t>(cookie));
    if (slot == nullptr || index >= slot->nargs)
        return fail("no argument " + std::to_string(index) + " of pid probe " + std::to_string(cookie));
    out->native_type = index < slot->arg_types.size() ? slot->arg_types[index].c_str() : "uint64_t";
    out->translated_type = nullptr;
    out->native_index = static_cast<uint8_t>(index);
    return 0;
}

bool PidPlugin::ensure_loaded() {
    if (uprobes_ || ptrace_)
        return true;
    live::Result<live::LiveOptions> options = live::read_live_options(host_, ops_);
    if (!options) {
        fail(options.error());
        return false;
    }
    options_ = options.value();
    live::Result<ptrace_backend::BackendMode> mode = ptrace_backend::backend_mode(host_, ops_);
    if (!mode) {
        fail(mode.error());
        return false;
    }
    if (mode.value() == ptrace_backend::BackendMode::Ptrace)
        return load_ptrace("");
    live::BpfLoadSettings settings;
    settings.ring_bytes = live::ring_size_for(options_.ring_bytes);
    settings.settings.wakeup_watermark = settings.ring_bytes / live::kWakeupFraction;
    settings.misses = &misses_;
    live::Result<std::unique_ptr<live::UprobeAttacher>> uprobes = live::UprobeAttacher::load("pid", settings);
    if (!uprobes && mode.value() == ptrace_backend::BackendMode::Auto)
        return load_ptrace(uprobes.error());
    if (!uprobes) {
        fail(uprobes.error());
        return false;
    }
    uprobes_ = std::move(uprobes.value());
    return true;
}

live_probe_config PidPlugin::config_of(const ProbeSlot &slot) const {
    live_probe_config config{};
    config.armed = 1;
    config.kind = slot.kind == ProbeKind::Entry    ? LIVE_KIND_UPROBE_ENTRY
                  : slot.kind == ProbeKind::Return ? LIVE_KIND_UPROBE_RETURN
                                                   : LIVE_KIND_UPROBE_OFFSET;
    config.nargs = slot.nargs;
    config.capture_limit = live::capture_limit(host_, ops_);
    int captures = 0;
    for (uint32_t arg = 0; slot.kind != ProbeKind::Return && arg < std::min<uint32_t>(slot.nargs, LIVE_MAX_ARGS) &&
                           captures < LIVE_MAX_CAPTURES;
         ++arg) {
        if (slot.string_args & (1u << arg))
            config.captures[captures++] = {static_cast<uint8_t>(arg), LIVE_CAPTURE_STRING, 0, 0};
    }
    if (options_.kernel_filter)
        config.filter = live::encode_filter(slot.filter, std::min<uint32_t>(slot.nargs, LIVE_MAX_ARGS));
    return config;
}

// What the probe's clauses read at the event: its stack, strings its
// arguments point to (copied by the program, as the call saw them).
void PidPlugin::learn_usage(dtrace_probe_id id, ProbeSlot &slot) {
    slot.usage_known = true;
    const std::optional<dtrace_probe_usage> usage = plugin_common::probe_usage_of(host_, ops_, id);
    if (!usage)
        return;
    slot.wants_stack = (usage->flags & DTRACE_USAGE_USER_STACK) != 0;
    slot.wants_regs = (usage->flags & DTRACE_USAGE_USER_REGS) != 0;
    slot.string_args = usage->string_args;
    slot.fetches = fetch_steps_of(*usage);
}

bool PidPlugin::arm(uint32_t index, ProbeSlot &slot) {
    if (ptrace_) {
        arm_ptrace(index, slot);
        return true;
    }
    uprobe_probe_config uconfig{};
    uconfig.stack_bytes = slot.wants_stack ? UPROBE_STACK_MAX : 0;
    uconfig.flags = slot.internal ? UPROBE_FLAG_STOP : 0;
    if (slot.wants_stack || slot.wants_regs || slot.nargs > LIVE_MAX_ARGS || !slot.fetches.empty())
        uconfig.flags |= UPROBE_FLAG_TAIL;
    uconfig.nfetches = static_cast<uint32_t>(slot.fetches.size());
    std::copy(slot.fetches.begin(), slot.fetches.end(), uconfig.fetches);
    if (live::Status configured = uprobes_->configure(index, config_of(slot), uconfig); !configured) {
        fail(configured.error());
        return false;
    }
    return true;
}

int PidPlugin::enable(dtrace_probe_id, uint64_t cookie) {
    std::lock_guard guard(mutex_);
    ProbeSlot *slot = slots_.get(static_cast<uint32_t>(cookie));
    if (slot == nullptr)
        return fail("enabling an unknown pid probe (cookie " + std::to_string(cookie) + ")");
    if (slot->enabled)
        return 0;
    if (!ensure_loaded() || !arm(static_cast<uint32_t>(cookie), *slot))
        return -1;
    slot->enabled = true;
    if (!slot->attached)
        pending_.push_back(static_cast<uint32_t>(cookie));
    // A probe enabled while tracing runs (a library loaded later) is attached now.
    if (started_ && !attach_pending())
        return -1;
    return 0;
}

void PidPlugin::disable(dtrace_probe_id, uint64_t cookie) {
    std::lock_guard guard(mutex_);
    ProbeSlot *slot = slots_.get(static_cast<uint32_t>(cookie));
    if (slot == nullptr || !slot->enabled || (!uprobes_ && !ptrace_))
        return;
    // Its uprobes (breakpoints) stay attached with the others of their batch, disarmed.
    if (ptrace_)
        ptrace_->disarm(static_cast<uint32_t>(cookie));
    else
        uprobes_->disarm(static_cast<uint32_t>(cookie));
    detach_fastpath_program(static_cast<uint32_t>(cookie));
    slot->enabled = false;
}

int PidPlugin::set_filters(dtrace_probe_id, uint64_t cookie, uint32_t nfilters, const dtrace_filter *filters) {
    std::lock_guard guard(mutex_);
    ProbeSlot *slot = slots_.get(static_cast<uint32_t>(cookie));
    if (slot == nullptr)
        return fail("filtering an unknown pid probe (cookie " + std::to_string(cookie) + ")");
    slot->filter = live::probe_filter_of(nfilters, filters);
    // Every clause of the probe is enabled by now: refuse what cannot work.
    learn_usage(slot->id.load(std::memory_order_acquire), *slot);
    if (slot->enabled && (uprobes_ || ptrace_) && !arm(static_cast<uint32_t>(cookie), *slot))
        return -1;
    return 0;
}

// -x fastpath=explain or -x verbose: say how the probes were attached.
bool PidPlugin::explains() const {
    const char *fastpath = ops_->get_option(host_, "fastpath");
    return ops_->get_option(host_, "verbose") != nullptr ||
           (fastpath != nullptr && std::strcmp(fastpath, "explain") == 0);
}

bool PidPlugin::attach_pending() {
    // One batch per process and file, in the order of pending_.
    std::vector<std::pair<std::pair<int64_t, std::string>, std::vector<live::UprobeSite>>> batches;
    for (uint32_t index : pending_) {
        ProbeSlot &slot = *slots_.get(index);
        if (!slot.enabled || slot.attached)
            continue;
        const std::pair<int64_t, std::string> where{slot.pid, slot.module->path};
        auto batch = std::find_if(batches.begin(), batches.end(), [&](const auto &b) { return b.first == where; });
        if (batch == batches.end())
            batch = batches.insert(batches.end(), {where, {}});
        std::vector<live::UprobeSite> &sites = batch->second;
        const uint64_t start = slot.function->file_offset;
        switch (slot.kind) {
        case ProbeKind::Entry:
            sites.push_back({start, live::uprobe_cookie(index, 0)});
            break;
        case ProbeKind::Return:
            for (uint32_t offset : slot.returns)
                sites.push_back({start + offset, live::uprobe_cookie(index, offset)});
            break;
        case ProbeKind::Offset:
            sites.push_back({start + slot.offset, live::uprobe_cookie(index, slot.offset)});
            break;
        }
        slot.attached = true;
    }
    pending_.clear();
    for (const auto &[where, sites] : batches) {
        if (ptrace_) {
            if (live::Status placed = ptrace_->attach(where.second, where.first, sites); !placed) {
                fail(placed.error());
                return false;
            }
            continue;
        }
        std::string fallback;
        live::Result<size_t> attached = uprobes_->attach(where.second, where.first, sites, &fallback);
        if (!attached) {
            fail(attached.error());
            return false;
        }
        if (!fallback.empty() && explains())
            ops_->report_error(host_, fallback.c_str());
    }
    return true;
}

int PidPlugin::start() {
    std::lock_guard guard(mutex_);
    // A process read only for its types (lookup_type) has no descriptions:
    // nothing to load, and it is not stopped at its library loads.
    const bool described = std::any_of(processes_.begin(), processes_.end(),
                                       [](const auto &entry) { return !entry.second.specs.empty(); });
    if (!described || started_)
        return 0;
    if (!ensure_loaded())
        return -1;
    // Every clause is enabled by now: arm each probe for what they read.
    for (uint32_t index = 0; index < slots_.count(); ++index) {
        ProbeSlot &slot = *slots_.get(index);
        if (!slot.enabled || slot.internal)
            continue;
        learn_usage(slot.id.load(std::memory_order_acquire), slot);
        if (!arm(index, slot))
            return -1;
    }
    // Libraries loaded later may hold probes the descriptions name (-Z).
    for (auto &[pid, process] : processes_) {
        if (!process.specs.empty() && !hook_link_map(pid, process))
            return -1;
    }
    if (!attach_pending())
        return -1;
    if (ptrace_) {
        started_ = true;
        return start_ptrace();
    }
    live::Result<std::unique_ptr<live::EventRing>> ring = live::start_event_ring(
        uprobes_->programs(), host_, ops_, &misses_, [this](std::span<const uint8_t> record) { deliver(record); });
    if (!ring)
        return fail(ring.error());
    ring_ = std::move(ring.value());
    started_ = true;
    return 0;
}

// Detaches first, so that the last drain sees every event there will be.
void PidPlugin::stop() {
    if (ptrace_)
        ptrace_->stop();
    if (uprobes_)
        uprobes_->detach_all();
    if (ring_)
        ring_->stop();
    ring_.reset();
    started_ = false;
}

bool PidPlugin::hook_link_map(int64_t pid, Process &process) {
    if (process.hooked)
        return true;
    process.hooked = true;
    auto executable = std::find_if(process.modules.begin(), process.modules.end(),
                                   [](const auto &module) { return module->executable; });
    if (executable == process.modules.end() || (*executable)->functions->interpreter().empty())
        return true; // a static executable loads nothing later
    std::shared_ptr<const PidModule> linker = module_for((*executable)->functions->interpreter(), false);
    const live::ElfFunction *hook = linker ? live::link_map_hook(*linker->functions) : nullptr;
    if (hook == nullptr)
        return true; // a linker without the hook: libraries loaded later get no probes
    bool created = false;
    std::optional<uint32_t> index = slots_.slot_for("link-map:" + std::to_string(pid), created);
    if (!index) {
        fail("more than " + std::to_string(UPROBE_MAX_SLOTS) + " pid probes");
        return false;
    }
    ProbeSlot &slot = *slots_.get(*index);
    slot.pid = pid;
    slot.module = linker;
    slot.function = hook;
    slot.kind = ProbeKind::Entry;
    slot.internal = true;
    slot.enabled = true;
    if (!arm(*index, slot))
        return false;
    pending_.insert(pending_.begin(), *index); // attached first
    return true;
}

void PidPlugin::on_link_map(int64_t pid) {
    refresh_libraries(pid);
    kill(static_cast<pid_t>(pid), SIGCONT);
}

void PidPlugin::refresh_libraries(int64_t pid) {
    {
        std::lock_guard guard(mutex_);
        stacks_.maps().refresh(pid);
        // A table that cannot be written again leaves the walk's maps empty:
        // the ustack() events go to user space, as exact.
        std::string ignored;
        (void)user_stack_table_.refresh(fastpath_, pid, stacks_.images(), ignored);
        auto known = processes_.find(pid);
        std::string error;
        if (known != processes_.end() && process_for(pid, error) != nullptr) {
            Process &process = known->second;
            for (const std::array<std::string, 3> &fields : std::vector(process.specs)) {
                dtrace_probe_spec spec{};
                spec.struct_size = sizeof spec;
                spec.module = fields[0].c_str();
                spec.function = fields[1].c_str();
                spec.name = fields[2].c_str();
                for (const std::shared_ptr<const PidModule> &module : std::vector(process.modules))
                    provide_module(pid, process, *module, module, spec);
            }
        }
        // The probes just made were enabled before their clauses were
        // attached to them: arm them for what those read.
        for (uint32_t index = 0; index < slots_.count(); ++index) {
            ProbeSlot &slot = *slots_.get(index);
            if (slot.enabled && !slot.internal && !slot.usage_known) {
                learn_usage(slot.id.load(std::memory_order_acquire), slot);
                arm(index, slot);
            }
        }
    }
}

// An event with its stack may be one the in-kernel walk declined because
// the process changed its code mappings: its table is written again then.
void PidPlugin::follow_user_stack_marks() {
    std::lock_guard guard(mutex_);
    std::string ignored; // a table that cannot be written again stays disabled: events come here, exact
    (void)user_stack_table_.follow_marks(fastpath_, stacks_.images(), ignored);
}

void PidPlugin::deliver(std::span<const uint8_t> record) {
    live::UprobeEvent event;
    if (!live::split_uprobe_event(record, event))
        return;
    live_record header;
    std::memcpy(&header, event.live.data(), sizeof header);
    const ProbeSlot *slot = slots_.get(header.slot);
    if (slot != nullptr && slot->internal) {
        on_link_map(slot->pid);
        return;
    }
    const dtrace_probe_id id = slot ? slot->id.load(std::memory_order_acquire) : 0;
    dtrace_event_ctx ctx;
    if (id == 0 || !firing_.prepare(event.live, std::min<uint32_t>(slot->nargs, LIVE_MAX_ARGS), ctx))
        return;
    uint64_t args[LIVE_MAX_ARGS + UPROBE_STACK_ARGS];
    if (slot->nargs > LIVE_MAX_ARGS) {
        std::memcpy(args, header.args, sizeof header.args);
        std::memcpy(args + LIVE_MAX_ARGS, event.tail.stack_args, sizeof event.tail.stack_args);
        ctx.args = args;
        ctx.nargs = std::min<uint32_t>(slot->nargs, LIVE_MAX_ARGS + UPROBE_STACK_ARGS);
    }
    uint64_t user_stack[kMaxUserFrames];
    if (!event.stack.empty()) {
        follow_user_stack_marks();
        const live::stacks::UserRegs regs = live::stacks::from_pt_regs(event.tail.regs);
        const live::stacks::StackCopy copy{event.tail.regs[UPROBE_REG_RSP], event.stack};
        ctx.user_stack = user_stack;
        ctx.user_stack_depth = static_cast<uint32_t>(stacks_.unwind_user(header.pid, regs, copy, user_stack));
    }
    live::UserRegisters uregs;
    if (slot->wants_regs && event.has_tail) {
        uregs = live::user_registers(event.tail);
        live::set_user_registers(ctx, uregs);
    }
    event_fetches_.set(event.tail, event.fetched);
    if (!event_fetches_.empty()) {
        ctx.read_memory = &PidPlugin::read_event_memory;
        ctx.reader_state = this;
    }
    ops_->fire(host_, id, &ctx);
    event_fetches_.clear();
}

int64_t PidPlugin::read_event_memory(void *state, uint64_t address, void *buffer, size_t length) {
    auto *self = static_cast<PidPlugin *>(state);
    if (std::optional<int64_t> fetched = self->event_fetches_.read(address, buffer, length))
        return *fetched;
    return live::LiveFiring::read(&self->firing_, address, buffer, length);
}

int PidPlugin::lookup_type(const char *name, const dtrace_type_graph **out) {
    std::lock_guard guard(mutex_);
    // A clause's types are resolved while it compiles, before its probe
    // description is provided: the session's targets are the programs.
    dtrace_target_info target{};
    target.struct_size = sizeof target;
    for (uint32_t i = 0; ops_->get_target != nullptr && ops_->get_target(host_, i, &target) == 0; ++i) {
        std::string ignored;
        if (target.state != DTRACE_TARGET_EXITED && !processes_.count(target.pid))
            process_for(target.pid, ignored, false); // no provider while a program compiles
    }
    // The executables' types first: a program's own structs are what a
    // description of it names.
    for (bool executable : {true, false}) {
        for (auto &[path, module] : modules_) {
            // A library's DWARF is read for its probes' types; only a
            // program's is read for a type name alone.
            DwarfTypes *types =
                module->executable == executable && (executable || dwarf_.count(path)) ? dwarf_for(*module) : nullptr;
            if (types == nullptr)
                continue;
            if (const dtrace_type_graph *graph = types->describe(name)) {
                *out = graph;
                return 0;
            }
        }
    }
    return -1;
}

int PidPlugin::lookup_symbol(uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out) {
    if (!stacks_.lookup(space, pid, address, out))
        return -1;
    if (space == DTRACE_SYMBOL_USER && out->function != nullptr) {
        demangled_ = live::demangle(out->function);
        out->function = demangled_.c_str();
    }
    return 0;
}

} // namespace dtrace::pid
