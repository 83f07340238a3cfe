// fbt_plugin.cpp: registering, typing, arming and firing fbt probes.
#include "fbt_plugin.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fnmatch.h>
#include <sys/stat.h>

#include "bpf/fbt_record.h"
#include "kernel_symbol_table.h"
#include "live_plugin_setup.h"
#include "probe_usage.h"
#include "process_library.h"
#include "sdk_filter.h"

extern "C" {
extern const unsigned char fbt_events_bpf_object[];
extern const size_t fbt_events_bpf_object_size;
extern const unsigned char fbt_trampoline_bpf_object[];
extern const size_t fbt_trampoline_bpf_object_size;
}

namespace dtrace::fbt {

namespace {

constexpr const char *kProvider = "fbt";
constexpr const char *kEntryName = "entry";
constexpr const char *kReturnName = "return";
constexpr const char *kKprobePmu = "/sys/bus/event_source/devices/kprobe";
constexpr uint32_t kGenericArgs = 6;
constexpr const char *kAttachOption = "fbtattach"; // a function BTF does not describe: its argument registers

// DTrace's fbt provider attributes.
constexpr dtrace_provider_attributes kAttributes = {
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
};

bool matches(const char *pattern, const std::string &name) {
    return pattern == nullptr || pattern[0] == '\0' || fnmatch(pattern, name.c_str(), 0) == 0;
}

} // namespace

FbtPlugin::FbtPlugin(dtrace_host *host, const dtrace_host_ops *ops)
    : host_(host), ops_(ops), slots_(std::make_unique<ProbeSlot[]>(LIVE_MAX_PROBES)), fastpath_(host, ops, &misses_),
      record_(std::make_unique<fbt_record>()) {
    // dtrace's programs run on kprobes (fbt_fastpath.cpp).
    fastpath_.set_program_kind(BPF_PROG_TYPE_KPROBE, 0);
}

FbtPlugin::~FbtPlugin() {
    stop();
}

int FbtPlugin::fail(const std::string &message) {
    ops_->report_error(host_, message.c_str());
    return -1;
}

int FbtPlugin::init() {
    // curpsinfo and curlwpsinfo at fbt probes, as at every live probe.
    if (live::register_live_libraries(host_, ops_) != 0)
        return -1;
    dtrace_provider_info info{};
    info.struct_size = sizeof info;
    info.name = kProvider;
    info.attributes = kAttributes;
    provider_ = ops_->register_provider(host_, &info);
    return provider_ == 0 ? -1 : 0;
}

const KernelFunction *FbtPlugin::function_of(uint64_t cookie) const {
    return functions_ != nullptr && cookie / 2 < functions_->size() ? &(*functions_)[cookie / 2] : nullptr;
}

FunctionPrototype FbtPlugin::prototype_of(const KernelFunction &function) {
    if (live::Result<const BtfSet *> types = btf_.module(function.module); types) {
        if (std::optional<FunctionPrototype> found = types.value()->prototype(function.name))
            return *found;
    }
    FunctionPrototype generic;
    generic.params.assign(kGenericArgs, "uint64_t");
    generic.return_type = "uint64_t";
    return generic;
}

int FbtPlugin::provide(const dtrace_probe_spec *spec) {
    const char *name_pattern = spec ? spec->name : nullptr;
    // A description that cannot name an fbt probe reads nothing.
    if (spec && (!matches(spec->provider, kProvider) ||
                 (!matches(name_pattern, kEntryName) && !matches(name_pattern, kReturnName))))
        return 0;
    if (functions_ == nullptr) {
        live::Result<const std::vector<KernelFunction> *> functions = catalog_.functions();
        if (!functions)
            return fail(functions.error());
        functions_ = functions.value();
        probe_ids_.assign(functions_->size() * 2, 0);
    }
    if (spec)
        descriptions_.push_back(
            {spec->module ? spec->module : "", spec->function ? spec->function : "", spec->name ? spec->name : ""});
    for (size_t i = 0; i < functions_->size(); ++i) {
        const KernelFunction &f = (*functions_)[i];
        if (spec && (!matches(spec->function, f.name) || !matches(spec->module, f.module)))
            continue;
        for (uint64_t cookie : {i * 2, i * 2 + 1}) {
            if (matches(name_pattern, is_return(cookie) ? kReturnName : kEntryName) && !register_probe(cookie))
                return -1;
        }
    }
    return 0;
}

bool FbtPlugin::register_probe(uint64_t cookie) {
    if (probe_ids_[cookie] != 0)
        return true;
    const KernelFunction &f = *function_of(cookie);
    // Types are asked for (arg_info) only by -lv and the programs that use args[].
    BtfSet::Shape shape{kGenericArgs, true};
    if (live::Result<const BtfSet *> types = btf_.module(f.module); types)
        shape = types.value()->shape(f.name).value_or(shape);
    dtrace_probe_desc desc{};
    desc.struct_size = sizeof desc;
    desc.module = f.module.c_str();
    desc.function = f.name.c_str();
    desc.name = is_return(cookie) ? kReturnName : kEntryName;
    desc.nargs = is_return(cookie) ? (shape.returns_value ? 2 : 1) : shape.params;
    desc.cookie = cookie;
    probe_ids_[cookie] = ops_->register_probe(host_, provider_, &desc);
    return probe_ids_[cookie] != 0;
}

int FbtPlugin::arg_info(dtrace_probe_id, uint64_t cookie, uint32_t index, dtrace_arg_desc *out) {
    const KernelFunction *f = function_of(cookie);
    if (f == nullptr)
        return fail("typing an unknown fbt probe (cookie " + std::to_string(cookie) + ")");
    const FunctionPrototype prototype = prototype_of(*f);
    if (is_return(cookie))
        answer_ = index == 0 ? "int" : prototype.return_type; // the return offset, the return value
    else
        answer_ = index < prototype.params.size() ? prototype.params[index] : "uint64_t";
    out->struct_size = sizeof *out;
    out->native_type = answer_.c_str();
    out->translated_type = nullptr;
    out->native_index = static_cast<uint8_t>(index);
    return 0;
}

std::optional<uint32_t> FbtPlugin::slot_for(uint64_t cookie) {
    if (auto it = slot_of_cookie_.find(cookie); it != slot_of_cookie_.end())
        return it->second;
    const uint32_t count = slot_count_.load(std::memory_order_acquire);
    if (count == LIVE_MAX_PROBES)
        return std::nullopt;
    slots_[count].cookie = cookie;
    slot_of_cookie_[cookie] = count;
    slot_count_.store(count + 1, std::memory_order_release);
    return count;
}

// Loads the BPF object at the first enabling, after checking that the
// kernel can attach to functions at all.
bool FbtPlugin::ensure_loaded(uint64_t cookie) {
    if (bpf_)
        return true;
    struct stat st {};
    if (stat(kKprobePmu, &st) != 0) {
        fail(std::string("this kernel has no kprobes (CONFIG_KPROBES is off: ") + kKprobePmu + " is missing)");
        return false;
    }
    live::Result<live::LiveOptions> options = live::read_live_options(host_, ops_);
    if (!options) {
        fail(options.error());
        return false;
    }
    options_ = options.value();
    const char *mode = ops_->get_option(host_, kAttachOption);
    const std::string_view mode_text = mode == nullptr ? "auto" : mode;
    if (mode_text == "auto")
        attach_mode_ = AttachMode::Auto;
    else if (mode_text == "kprobe")
        attach_mode_ = AttachMode::Kprobe;
    else if (mode_text == "fentry")
        attach_mode_ = AttachMode::Fentry;
    else {
        fail(std::string(kAttachOption) + " must be auto, kprobe or fentry, not \"" + std::string(mode_text) + "\"");
        return false;
    }
    live::BpfLoadSettings settings;
    settings.ring_bytes = live::ring_size_for(options_.ring_bytes);
    settings.settings.wakeup_watermark = settings.ring_bytes / live::kWakeupFraction;
    settings.misses = &misses_;
    live::Result<std::unique_ptr<live::BpfProgramSet>> set = live::BpfProgramSet::load(
        std::span<const uint8_t>(fbt_events_bpf_object, fbt_events_bpf_object_size), kProvider, settings);
    if (!set) {
        fail(set.error());
        return false;
    }
    bpf_ = std::move(set.value());
    return true;
}

live_probe_config FbtPlugin::config_of(const ProbeSlot &slot) const {
    live_probe_config config{};
    config.armed = 1;
    config.nargs = slot.nargs;
    if (options_.kernel_filter)
        config.filter = live::encode_filter(slot.filter, config.nargs);
    return config;
}

int FbtPlugin::enable(dtrace_probe_id probe, uint64_t cookie) {
    const KernelFunction *f = function_of(cookie);
    if (f == nullptr)
        return fail("enabling an unknown fbt probe (cookie " + std::to_string(cookie) + ")");
    if (!ensure_loaded(cookie))
        return -1;
    std::optional<uint32_t> index = slot_for(cookie);
    if (!index)
        return fail("more than " + std::to_string(LIVE_MAX_PROBES) + " fbt probes enabled");
    ProbeSlot &slot = slots_[*index];
    if (slot.enabled)
        return 0;
    const FunctionPrototype prototype = prototype_of(*f);
    slot.nargs =
        is_return(cookie) ? 2 : static_cast<uint32_t>(std::min<size_t>(prototype.params.size(), LIVE_MAX_ARGS));
    slot.id.store(probe, std::memory_order_release);
    if (live::Status configured = bpf_->configure(*index, config_of(slot)); !configured)
        return fail(configured.error());
    slot.enabled = true;
    // Before tracing starts, dtrace may still give the probe a program of
    // its own (attach_fastpath_program), which needs no program of ours:
    // start() attaches the others.
    if (!started_)
        return 0;
    live::Result<size_t> attachment = attach(slot, *f, *index);
    if (!attachment) {
        slot.enabled = false;
        return fail(attachment.error());
    }
    slot.attachment = attachment.value();
    // The first probe enabled while tracing (a module's, registered late) opens the ring.
    return ring_ ? 0 : open_ring();
}

live::Result<std::unique_ptr<live::BpfProgramSet>> FbtPlugin::load_trampoline(const KernelFunction &f, bool is_return) {
    live::BpfLoadSettings settings; // the ring and maps are the kprobe object's
    settings.misses = &misses_;
    const char *program = is_return ? "fbt_fexit" : "fbt_fentry";
    settings.before_load = [&](bpf_object *object) {
        bpf_program *wanted = bpf_object__find_program_by_name(object, program);
        bpf_program *other = bpf_object__find_program_by_name(object, is_return ? "fbt_fentry" : "fbt_fexit");
        return wanted != nullptr && other != nullptr && bpf_program__set_autoload(other, false) == 0 &&
               bpf_program__set_attach_target(wanted, 0, f.name.c_str()) == 0;
    };
    return live::BpfProgramSet::load(
        std::span<const uint8_t>(fbt_trampoline_bpf_object, fbt_trampoline_bpf_object_size),
        std::string(kProvider) + " (" + (is_return ? "fexit " : "fentry ") + f.name + ")", settings, bpf_.get());
}

// fentry/fexit where the kernel allows them (the first failure under Auto
// sends this and every later probe to kprobes), else a kprobe.
live::Result<size_t> FbtPlugin::attach(ProbeSlot &slot, const KernelFunction &f, uint32_t index) {
    const bool ret = is_return(slot.cookie);
    if (attach_mode_ != AttachMode::Kprobe && trampolines_work_) {
        live::Result<std::unique_ptr<live::BpfProgramSet>> loaded = load_trampoline(f, ret);
        if (loaded) {
            live::Result<size_t> attached = loaded.value()->attach_trace(ret ? "fbt_fexit" : "fbt_fentry", index);
            if (attached) {
                slot.trampoline = std::move(loaded.value());
                return attached;
            }
            if (attach_mode_ == AttachMode::Fentry)
                return live::Error{attached.error()};
        } else if (attach_mode_ == AttachMode::Fentry) {
            return live::Error{loaded.error()};
        }
        trampolines_work_ = false;
    }
    return attach_kprobe(f, ret, index);
}

bool FbtPlugin::attach_pending() {
    const uint32_t count = slot_count_.load(std::memory_order_acquire);
    for (uint32_t i = 0; i < count; ++i) {
        ProbeSlot &slot = slots_[i];
        if (!slot.enabled || slot.attachment || slot.fastpath_link >= 0)
            continue;
        live::Result<size_t> attachment = attach(slot, *function_of(slot.cookie), i);
        if (!attachment) {
            fail(attachment.error());
            return false;
        }
        slot.attachment = attachment.value();
    }
    return true;
}

live::Result<size_t> FbtPlugin::attach_kprobe(const KernelFunction &f, bool ret, uint64_t cookie) {
    return bpf_->attach_kprobe(ret ? "fbt_return" : "fbt_entry", f.name, ret, cookie);
}

void FbtPlugin::detach(ProbeSlot &slot) {
    if (slot.trampoline)
        slot.trampoline.reset(); // its link and program with it
    else if (slot.attachment)
        bpf_->detach(*slot.attachment);
    slot.attachment.reset();
    fastpath_.detach(slot.fastpath_link);
    slot.fastpath_link = -1;
}

void FbtPlugin::disable(dtrace_probe_id, uint64_t cookie) {
    auto it = slot_of_cookie_.find(cookie);
    if (it == slot_of_cookie_.end() || !bpf_)
        return;
    ProbeSlot &slot = slots_[it->second];
    if (!slot.enabled)
        return;
    detach(slot);
    slot.enabled = false;
    (void)bpf_->configure(it->second, live_probe_config{});
}

int FbtPlugin::set_filters(dtrace_probe_id probe, uint64_t cookie, uint32_t nfilters, const dtrace_filter *filters) {
    auto it = slot_of_cookie_.find(cookie);
    if (it == slot_of_cookie_.end())
        return 0; // not enabled: nothing to filter
    ProbeSlot &slot = slots_[it->second];
    slot.filter = live::probe_filter_of(nfilters, filters);
    if (!slot.enabled || !bpf_)
        return 0;
    if (live::Status configured = bpf_->configure(it->second, config_of(slot)); !configured)
        return fail(configured.error());
    return write_fetch_plan(probe, it->second);
}

// The kernel memory the probe's clauses load, read at the event (event_memory.h).
// dtrace knows the clauses by the time it sends a probe's filters.
int FbtPlugin::write_fetch_plan(dtrace_probe_id probe, uint32_t index) {
    const std::optional<dtrace_probe_usage> usage = plugin_common::probe_usage_of(host_, ops_, probe);
    fbt_fetch_plan plan = usage ? fetch_plan_of(*usage) : fbt_fetch_plan{};
    if (usage)
        add_user_strings(plan, *usage, live::capture_limit(host_, ops_)); // copyinstr(), as the call saw it
    // Reading and decoding the function is worth it only when a clause reads arg0.
    const uint64_t cookie = slots_[index].cookie;
    if (is_return(cookie) && (!usage || (usage->flags & DTRACE_USAGE_ARGS))) {
        const KernelFunction &f = *function_of(cookie);
        plan.return_offset = static_cast<uint32_t>(return_offsets_.offset_of(f.module, f.name));
        slots_[index].return_offset = plan.return_offset;
    }
    if (bpf_map_update_elem(bpf_->map_fd("fbt_plans"), &index, &plan, BPF_ANY) != 0)
        return fail(std::string("cannot write the fbt fetch plan: ") + std::strerror(errno));
    return 0;
}

int FbtPlugin::start() {
    if (started_)
        return 0;
    if (!attach_pending() || (bpf_ && open_ring() != 0))
        return -1;
    // Without a probe enabled yet (dtrace -Z), a module loaded later may bring one.
    if (functions_ != nullptr && !descriptions_.empty()) {
        module_watcher_ = std::make_unique<ModuleWatcher>([this](const std::string &module) { add_module(module); });
        module_watcher_->start();
    }
    started_ = true;
    return 0;
}

int FbtPlugin::open_ring() {
    live::Result<std::unique_ptr<live::EventRing>> ring = live::start_event_ring(
        *bpf_, host_, ops_, &misses_, [this](std::span<const uint8_t> record) { deliver(record); });
    if (!ring)
        return fail(ring.error());
    ring_ = std::move(ring.value());
    return 0;
}

// A module loaded while tracing: probes for its functions that a
// description names, registered late (the engine enables those its
// enablings match, and sends their filters: set_filters).
void FbtPlugin::add_module(const std::string &module) {
    kernel_symbols_.reload_later(); // its frames are named from now on
    live::Result<std::pair<size_t, size_t>> added = catalog_.add_module(module);
    if (!added || added.value().first == added.value().second)
        return;
    probe_ids_.resize(functions_->size() * 2, 0);
    return_offsets_.forget(); // its table predates the module
    for (size_t i = added.value().first; i < added.value().second; ++i) {
        const KernelFunction &f = (*functions_)[i];
        for (const Description &d : descriptions_) {
            if (!matches(d.module.c_str(), f.module) || !matches(d.function.c_str(), f.name))
                continue;
            for (uint64_t cookie : {i * 2, i * 2 + 1}) {
                if (matches(d.name.c_str(), is_return(cookie) ? kReturnName : kEntryName))
                    register_probe(cookie);
            }
        }
    }
}

// Detaches first, so that the last drain sees every event there will be.
void FbtPlugin::stop() {
    module_watcher_.reset(); // no probe is registered from here on
    const uint32_t count = slot_count_.load(std::memory_order_acquire);
    for (uint32_t i = 0; i < count; ++i) {
        if (slots_[i].trampoline)
            slots_[i].trampoline->detach_all();
    }
    if (bpf_)
        bpf_->detach_all();
    fastpath_.detach_all();
    if (ring_)
        ring_->stop();
    ring_.reset();
    started_ = false;
}

// What the event's record read (event_memory.h: kernel memory, and the
// user memory copyin() and copyinstr() take); else kernel addresses
// through the BPF reader, now, and the rest as any live firing.
int64_t FbtPlugin::read_memory(void *state, uint64_t address, void *buffer, size_t length) {
    auto *self = static_cast<FbtPlugin *>(state);
    if (live::ProcessInfo::owns(address))
        return live::LiveFiring::read(&self->firing_, address, buffer, length);
    if (self->event_memory_) {
        if (std::optional<int64_t> read = self->event_memory_->read(address, buffer, length))
            return *read;
    }
    if (address < kKernelAddressStart)
        return live::LiveFiring::read(&self->firing_, address, buffer, length);
    return self->kernel_memory_.read(address, buffer, length);
}

void FbtPlugin::deliver(std::span<const uint8_t> record) {
    // The record is as long as its stack, or its fetched memory (bpf/fbt_record.h).
    fbt_record &r = *record_;
    constexpr size_t kHeader = offsetof(fbt_record, stack);
    constexpr size_t kFetchHeader = offsetof(fbt_record, data);
    if (record.size() < kHeader || record.size() > sizeof r)
        return;
    std::memcpy(&r, record.data(), record.size());
    if (r.stack_bytes < 0 || static_cast<uint64_t>(r.stack_bytes) > record.size() - kHeader)
        return;
    if (r.nfetched > FBT_MAX_FETCHES ||
        (r.nfetched > 0 && (record.size() < kFetchHeader || r.fetch_bytes > record.size() - kFetchHeader)))
        return;
    if (r.live.slot >= slot_count_.load(std::memory_order_acquire))
        return;
    const ProbeSlot &slot = slots_[r.live.slot];
    const dtrace_probe_id id = slot.id.load(std::memory_order_acquire);
    dtrace_event_ctx ctx;
    if (id == 0 || !firing_.prepare(record.first(sizeof r.live), slot.nargs, ctx))
        return;
    if (r.stack_bytes > 0) {
        const auto *stack = reinterpret_cast<const uint64_t *>(r.stack); // __u64 is unsigned long long, same size
        uint32_t depth =
            static_cast<uint32_t>(std::min<int64_t>(r.stack_bytes / int64_t(sizeof(uint64_t)), FBT_MAX_FRAMES));
        const uint32_t skip = slot.trampoline ? skip_trampoline_frames(stack, depth) : 0;
        ctx.kernel_stack = stack + skip;
        ctx.kernel_stack_depth = depth - skip;
    }
    ctx.read_memory = &FbtPlugin::read_memory;
    ctx.reader_state = this;
    ctx.flags |= DTRACE_EVENT_KERNEL_MEMORY;
    if (r.nfetched > 0)
        event_memory_.emplace(std::span<const live_fetched>(r.fetched, r.nfetched),
                              std::span<const uint8_t>(r.data, r.fetch_bytes));
    ops_->fire(host_, id, &ctx);
    event_memory_.reset();
}

// A fentry/fexit program runs in a BPF trampoline called from the
// function's first instruction: the stack starts with the trampoline's
// frame (module "bpf"), then the function. DTrace's starts with the function.
uint32_t FbtPlugin::skip_trampoline_frames(const uint64_t *stack, uint32_t depth) {
    uint32_t skip = 0;
    while (skip + 1 < depth) {
        std::optional<live::stacks::KernelSymbol> frame = kernel_symbols_.lookup(stack[skip]);
        if (frame && frame->module == "vmlinux")
            break;
        ++skip;
    }
    return skip;
}

int FbtPlugin::lookup_symbol(uint32_t space, int64_t, uint64_t address, dtrace_symbol *out) {
    if (space != DTRACE_SYMBOL_KERNEL)
        return -1;
    std::optional<live::stacks::KernelSymbol> found = kernel_symbols_.lookup(address);
    if (!found)
        return -1;
    symbol_module_ = found->module;
    symbol_function_ = found->function;
    out->module = symbol_module_.c_str();
    out->function = symbol_function_.c_str();
    out->offset = found->offset;
    return 0;
}

int FbtPlugin::lookup_type(const char *name, const dtrace_type_graph **out) {
    // Most names asked are a program's identifiers, not kernel types: those
    // are answered without parsing BTF (btf_type_names.h).
    const std::string_view spelling = name;
    const bool tagged =
        spelling.starts_with("struct ") || spelling.starts_with("union ") || spelling.starts_with("enum ");
    // A module's own types (split BTF over vmlinux's): first those of the
    // modules whose functions were typed (a program naming a module's type
    // mostly has probes there: args[] typed first); a struct, union or enum
    // found nowhere else has every module read; no module is read for
    // another program's identifiers.
    const std::vector<const BtfSet *> modules = btf_.modules_read();
    const auto module_typedef = [&] {
        return std::any_of(modules.begin(), modules.end(),
                           [&](const BtfSet *set) { return set->find(BTF_KIND_TYPEDEF, spelling) != 0; });
    };
    if (!tagged && !type_names_.may_name_type(spelling) && !module_typedef())
        return -1;
    live::Result<const BtfSet *> types = btf_.vmlinux();
    if (!types)
        return -1;
    const dtrace_type_graph *graph = type_graph_.describe(*types.value(), name);
    for (auto module = modules.begin(); graph == nullptr && module != modules.end(); ++module)
        graph = type_graph_.describe(**module, name);
    if (graph == nullptr && tagged) {
        // A module's struct no typed function led to: every module's BTF is read once.
        for (const BtfSet *module : btf_.read_all_modules()) {
            graph = type_graph_.describe(*module, name);
            if (graph != nullptr)
                break;
        }
    }
    if (graph == nullptr)
        return -1;
    *out = graph;
    return 0;
}

int FbtPlugin::lookup_kernel_symbol(const char *module, const char *name, dtrace_kernel_symbol *out) {
    std::optional<KallsymsEntry> found = find_kernel_symbol("/proc/kallsyms", module, name);
    if (!found)
        return -1;
    out->address = found->address;
    out->type = nullptr; // int, as DTrace types a symbol it has no type for
    if (live::Result<const BtfSet *> types = btf_.module(module); types) {
        if (uint32_t var = types.value()->find(BTF_KIND_VAR, name); var != 0) {
            answer_ = types.value()->spell(btf__type_by_id(types.value()->handle(), var)->type);
            if (!answer_.empty())
                out->type = answer_.c_str();
        }
    }
    return 0;
}

} // namespace dtrace::fbt
