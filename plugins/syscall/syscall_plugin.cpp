// syscall_plugin.cpp: registering, arming and firing syscall probes.
#include "syscall_plugin.h"

#include <cerrno>
#include <cstring>
#include <fnmatch.h>
#include <string_view>
#include <vector>

#include "arg_types.h"
#include "live_options.h"
#include "live_plugin_setup.h"
#include "process_library.h"
#include "sdk_filter.h"
#include "syscall_numbers.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

extern "C" {
extern const unsigned char syscall_events_bpf_object[];
extern const size_t syscall_events_bpf_object_size;
extern const unsigned char syscall_raw_events_bpf_object[];
extern const size_t syscall_raw_events_bpf_object_size;
}

namespace dtrace::syscall {

namespace {

constexpr const char *kProvider = "syscall";
constexpr const char *kEntryName = "entry";
constexpr const char *kReturnName = "return";
constexpr const char *kEntryProgram = "syscall_entry";
constexpr const char *kReturnProgram = "syscall_return";
// The raw_syscalls programs' attach cookie (syscall_emit.bpf.h's SYSCALL_RAW_COOKIE), with the direction.
constexpr uint64_t kRawCookie = uint64_t{1} << 32;
constexpr const char *kRawPrograms[] = {"raw_syscall_entry", "raw_syscall_return"};
constexpr const char *kRawEvents[] = {"sys_enter", "sys_exit"};
constexpr const char *kRawGroup = "raw_syscalls";
// Calls of one direction enabled one by one before the raw_syscalls program
// takes over: a few per-call tracepoints detach quickly and cost nothing to
// other calls; hundreds take seconds to detach.
constexpr uint32_t kRawThreshold = 16;

// DTrace's syscall provider attributes.
constexpr dtrace_provider_attributes kAttributes = {
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
};

// A description field (a glob; empty matches anything) against a name.
bool matches(const char *pattern, const char *name) {
    return pattern == nullptr || pattern[0] == '\0' || fnmatch(pattern, name, 0) == 0;
}

} // namespace

SyscallPlugin::SyscallPlugin(dtrace_host *host, const dtrace_host_ops *ops)
    : host_(host), ops_(ops), slots_(std::make_unique<ProbeSlot[]>(LIVE_MAX_PROBES)), fastpath_(host, ops, &misses_),
      user_stacks_(host, ops, fastpath_, stacks_) {}

SyscallPlugin::~SyscallPlugin() {
    stop();
}

int SyscallPlugin::fail(const std::string &message) {
    ops_->report_error(host_, message.c_str());
    return -1;
}

int SyscallPlugin::init() {
    if (live::register_live_libraries(host_, ops_) != 0)
        return -1;
    dtrace_provider_info info{};
    info.struct_size = sizeof info;
    info.name = kProvider;
    info.attributes = kAttributes;
    info.d_source = syscall_d_types().c_str();
    provider_ = ops_->register_provider(host_, &info);
    return provider_ == 0 ? -1 : 0;
}

int SyscallPlugin::provide(const dtrace_probe_spec *spec) {
    const char *name_pattern = spec ? spec->name : nullptr;
    // A description that cannot name a syscall probe reads nothing of tracefs.
    if (spec && (!matches(spec->provider, kProvider) || !matches(spec->module, "") ||
                 (!matches(name_pattern, kEntryName) && !matches(name_pattern, kReturnName))))
        return 0;
    live::Result<const std::vector<std::string> *> names = catalog_.names();
    if (!names)
        return fail(names.error());
    std::vector<const std::string *> matched;
    for (const std::string &name : *names.value()) {
        if (matches(spec ? spec->function : nullptr, name.c_str()))
            matched.push_back(&name);
    }
    // A description naming many calls will be traced by call number.
    const bool wide = matched.size() > kRawThreshold;
    for (const std::string *name : matched) {
        if (!register_call(*name, name_pattern, wide))
            return -1;
    }
    return 0;
}

std::optional<uint32_t> SyscallPlugin::slot_for(const std::string &function, bool is_return) {
    const uint32_t count = slot_count_.load(std::memory_order_acquire);
    for (uint32_t i = 0; i < count; ++i) {
        if (slots_[i].function == function && slots_[i].is_return == is_return)
            return i;
    }
    if (count == LIVE_MAX_PROBES)
        return std::nullopt;
    slots_[count].function = function;
    slots_[count].is_return = is_return;
    slot_count_.store(count + 1, std::memory_order_release);
    return count;
}

bool SyscallPlugin::register_call(const std::string &name, const char *name_pattern, bool wide) {
    live::Result<const SyscallShape *> shape = catalog_.shape(name);
    if (!shape) {
        fail(shape.error());
        return false;
    }
    for (bool is_return : {false, true}) {
        const char *probe_name = is_return ? kReturnName : kEntryName;
        if (!matches(name_pattern, probe_name))
            continue;
        std::optional<uint32_t> slot = slot_for(name, is_return);
        if (!slot) {
            fail("more than " + std::to_string(LIVE_MAX_PROBES) + " syscall probes");
            return false;
        }
        ProbeSlot &s = slots_[*slot];
        s.shape = shape.value();
        s.wide = s.wide || wide;
        const std::vector<std::string> &types = is_return ? s.shape->return_types : s.shape->entry_types;
        std::vector<dtrace_arg_desc> args(types.size());
        for (size_t i = 0; i < types.size(); ++i) {
            args[i].struct_size = sizeof args[i];
            args[i].native_type = types[i].c_str();
            args[i].native_index = static_cast<uint8_t>(i);
        }
        dtrace_probe_desc desc{};
        desc.struct_size = sizeof desc;
        desc.module = "";
        desc.function = name.c_str();
        desc.name = probe_name;
        desc.nargs = static_cast<uint32_t>(args.size());
        desc.args = args.empty() ? nullptr : args.data();
        desc.cookie = *slot;
        dtrace_probe_id id = ops_->register_probe(host_, provider_, &desc);
        if (id == 0)
            return false;
        s.id.store(id, std::memory_order_release);
    }
    return true;
}

bool SyscallPlugin::ensure_loaded(Direction direction) {
    return call_bpf_[direction] ||
           load_events_object(direction == kReturn ? kReturnProgram : kEntryProgram, call_bpf_[direction]);
}

bool SyscallPlugin::ensure_way_back() {
    return declined_bpf_ || load_events_object(kDeclinedProgram, declined_bpf_);
}

// The per-call object with `program` only, into `into`: the maps' owner
// (bpf_) if it is the first object, else sharing bpf_'s maps.
bool SyscallPlugin::load_events_object(const char *program, std::unique_ptr<live::BpfProgramSet> &into) {
    const std::span<const uint8_t> image(syscall_events_bpf_object, syscall_events_bpf_object_size);
    if (!bpf_) {
        live::Result<live::LoadedObject> loaded =
            live::load_live_object(host_, ops_, image, kProvider, &misses_, live::load_only({program}));
        if (!loaded) {
            fail(loaded.error());
            return false;
        }
        into = std::move(loaded.value().programs);
        options_ = loaded.value().options;
        settings_ = std::move(loaded.value().settings);
        bpf_ = into.get();
        return true;
    }
    live::BpfLoadSettings settings = settings_; // the ring is bpf_'s
    settings.before_load = live::load_only({program});
    live::Result<std::unique_ptr<live::BpfProgramSet>> set =
        live::BpfProgramSet::load(image, kProvider, settings, bpf_);
    if (!set) {
        fail(set.error());
        return false;
    }
    into = std::move(set.value());
    return true;
}

live_probe_config SyscallPlugin::config_of(const ProbeSlot &slot) const {
    live_probe_config config{};
    config.armed = 1;
    config.kind = slot.is_return ? LIVE_KIND_SYSCALL_RETURN : LIVE_KIND_SYSCALL_ENTRY;
    config.nargs = static_cast<uint32_t>(slot.is_return ? 2 : slot.shape->entry_types.size());
    config.capture_limit = live::capture_limit(host_, ops_);
    if (!slot.is_return)
        std::memcpy(config.captures, slot.shape->captures, sizeof config.captures);
    if (options_.kernel_filter)
        config.filter = live::encode_filter(slot.filter, config.nargs);
    config.stacks = slot.stacks;
    config.user_stack_bytes = LIVE_USER_STACK_MAX;
    return config;
}

bool SyscallPlugin::set_raw_slot(const ProbeSlot &slot, Direction direction, uint32_t value) {
    std::optional<int> number = syscall_number(slot.function);
    if (!number || *number >= LIVE_MAX_SYSCALLS)
        return false;
    const uint32_t key = static_cast<uint32_t>(*number) * 2 + direction;
    // Both directions' raw objects share the slots map.
    return bpf_map_update_elem(raw_bpf_[direction]->map_fd("live_syscall_slots"), &key, &value, BPF_ANY) == 0;
}

// Attaches the raw_syscalls program of `direction` (once).
bool SyscallPlugin::use_raw(Direction direction) {
    if (raw_attachment_[direction])
        return true;
    if (!raw_bpf_[direction]) {
        live::BpfLoadSettings settings = settings_; // the ring is bpf_'s, the slots map the other direction's
        settings.before_load = live::load_only({kRawPrograms[direction]});
        const live::BpfProgramSet *other = raw_bpf_[1 - direction].get();
        live::Result<std::unique_ptr<live::BpfProgramSet>> set = live::BpfProgramSet::load(
            std::span<const uint8_t>(syscall_raw_events_bpf_object, syscall_raw_events_bpf_object_size),
            "syscall (raw_syscalls)", settings, other ? other : bpf_);
        if (!set) {
            fail(set.error());
            return false;
        }
        raw_bpf_[direction] = std::move(set.value());
    }
    live::Result<size_t> attached = raw_bpf_[direction]->attach_tracepoint(
        kRawPrograms[direction], kRawGroup, kRawEvents[direction], kRawCookie | static_cast<uint64_t>(direction));
    if (!attached) {
        fail(attached.error());
        return false;
    }
    raw_attachment_[direction] = attached.value();
    return true;
}

// A probe enabled before tracing starts is armed when it starts (start()):
// by then a probe whose clauses run in the kernel has its generated program
// on its own tracepoint, and the plugin's program (whose verification is
// most of a one-liner's start) is loaded only if some probe needs it.
int SyscallPlugin::enable(dtrace_probe_id, uint64_t cookie) {
    if (cookie >= slot_count_.load(std::memory_order_acquire))
        return fail("enabling an unknown syscall probe (cookie " + std::to_string(cookie) + ")");
    ProbeSlot &slot = slots_[cookie];
    if (slot.enabled)
        return 0;
    slot.enabled = true;
    enabled_count_[slot.is_return ? kReturn : kEntry]++;
    if (started_ && !arm(slot, static_cast<uint32_t>(cookie))) {
        disable(0, cookie);
        return -1;
    }
    return 0;
}

// Whether the probe is traced through the raw_syscalls program (found by number).
bool SyscallPlugin::goes_raw(const ProbeSlot &slot) const {
    const Direction direction = slot.is_return ? kReturn : kEntry;
    return (slot.wide || enabled_count_[direction] > kRawThreshold || raw_attachment_[direction]) &&
           syscall_number(slot.function);
}

// The plugin's program delivers the probe's events to the ring: on its own
// tracepoint, or found by number by the raw_syscalls program.
bool SyscallPlugin::arm(ProbeSlot &slot, uint32_t index) {
    const Direction direction = slot.is_return ? kReturn : kEntry;
    if (!ensure_loaded(direction) || !ensure_ring())
        return false;
    if (live::Status configured = bpf_->configure(index, config_of(slot)); !configured) {
        fail(configured.error());
        return false;
    }
    if (goes_raw(slot) && !use_raw(direction))
        return false;
    if (raw_attachment_[direction] && set_raw_slot(slot, direction, index + 1)) {
        slot.raw = true;
    } else {
        const std::string event = (slot.is_return ? kExitPrefix : kEntryPrefix) + slot.function;
        live::Result<size_t> attachment = call_bpf_[direction]->attach_tracepoint(
            slot.is_return ? kReturnProgram : kEntryProgram, kSyscallGroup, event, index);
        if (!attachment) {
            fail(attachment.error());
            return false;
        }
        slot.attachment = attachment.value();
    }
    slot.armed = true;
    return true;
}

void SyscallPlugin::disable(dtrace_probe_id, uint64_t cookie) {
    if (cookie >= slot_count_.load(std::memory_order_acquire))
        return;
    ProbeSlot &slot = slots_[cookie];
    if (!slot.enabled)
        return;
    const Direction direction = slot.is_return ? kReturn : kEntry;
    if (slot.raw)
        set_raw_slot(slot, direction, 0);
    if (slot.attachment)
        call_bpf_[direction]->detach(*slot.attachment);
    slot.attachment.reset();
    fastpath_.detach(slot.fastpath_link);
    slot.fastpath_link = -1;
    slot.raw = false;
    slot.armed = false;
    slot.way_back = false;
    slot.enabled = false;
    enabled_count_[direction]--;
    if (!bpf_)
        return;
    const uint32_t key = static_cast<uint32_t>(cookie);
    (void)bpf_map_delete_elem(bpf_->map_fd("live_fastpath"), &key); // its generated program, if any
    (void)bpf_->configure(static_cast<uint32_t>(cookie), live_probe_config{});
}

int SyscallPlugin::set_filters(dtrace_probe_id id, uint64_t cookie, uint32_t nfilters, const dtrace_filter *filters) {
    if (cookie >= slot_count_.load(std::memory_order_acquire))
        return fail("filtering an unknown syscall probe (cookie " + std::to_string(cookie) + ")");
    ProbeSlot &slot = slots_[cookie];
    slot.filter = live::probe_filter_of(nfilters, filters);
    // Every clause of the probe is enabled by now: the stacks they read.
    slot.stacks = live::stacks_for_usage(host_, ops_, id);
    if (!live::prepare_stacks(host_, ops_, slot.stacks, stacks_))
        return -1;
    if (!slot.armed && !slot.way_back)
        return 0; // applied when the probe is armed
    if (live::Status configured = bpf_->configure(static_cast<uint32_t>(cookie), config_of(slot)); !configured)
        return fail(configured.error());
    return 0;
}

int SyscallPlugin::fastpath_layout(dtrace_probe_id, uint64_t cookie, dtrace_fastpath_probe &out) const {
    if (cookie >= slot_count_.load(std::memory_order_acquire) || !slots_[cookie].enabled)
        return -1;
    const ProbeSlot &slot = slots_[cookie];
    // Both the per-call and the raw_syscalls records hold the arguments (or
    // the return value) at offset 16 (syscall_events.bpf.c).
    out.flags = slot.is_return ? DTRACE_FASTPATH_SYSCALL_RETURN : 0;
    out.nargs = static_cast<uint32_t>(slot.is_return ? 2 : slot.shape->entry_types.size());
    out.arg_offset = 16;
    live::FastpathLoader::describe_task(out);
    describe_user_stacks(out);
    const std::optional<int> number = syscall_number(slot.function);
    if (number && out.struct_size >= offsetof(dtrace_fastpath_probe, probe_word) + sizeof out.probe_word) {
        // Both records hold the system call's number at offset 8 (an int in
        // the per-call one, a long in raw_syscalls'): its low 4 bytes.
        out.probe_word_offset = 8;
        out.probe_word_size = 4;
        out.probe_word = static_cast<uint64_t>(*number);
    }
    return 0;
}

// A probe on its own tracepoint gets the generated program attached there in
// place of the plugin's (no attach cookie, no tail call: the cheapest event
// the kernel has). A slot already armed (a probe enabled late) is disarmed
// first, so that no event runs both; the few events in between are not
// traced. False: the tail call then. Its cookie is the slot, as the
// plugin's link's: the way back reads it (syscall_declined_event).
bool SyscallPlugin::attach_fastpath_directly(int32_t program, ProbeSlot &slot, uint32_t index) {
    if (slot.raw || goes_raw(slot) || (slot.armed && !bpf_->configure(index, live_probe_config{})))
        return false; // found by number by the raw_syscalls program
    std::string error;
    const std::string event = (slot.is_return ? kExitPrefix : kEntryPrefix) + slot.function;
    const int32_t link = fastpath_.attach_tracepoint(program, kSyscallGroup, event, index, error);
    if (link < 0) {
        if (slot.armed)
            (void)bpf_->configure(index, config_of(slot));
        return false;
    }
    if (slot.attachment)
        call_bpf_[slot.is_return ? kReturn : kEntry]->detach(*slot.attachment);
    slot.attachment.reset();
    slot.armed = false;
    slot.fastpath_link = link;
    // The way back delivers by the slot's configuration (the plugin's program is gone).
    return !slot.way_back || bpf_->configure(index, config_of(slot));
}

int SyscallPlugin::attach_fastpath_program(int32_t program, dtrace_probe_id, uint64_t cookie) {
    const int fd = fastpath_.program_fd(program);
    if (fd < 0 || cookie >= slot_count_.load(std::memory_order_acquire) || !slots_[cookie].enabled)
        return fail("attaching a generated program to a probe that is not enabled (cookie " + std::to_string(cookie) +
                    ")");
    const uint32_t key = static_cast<uint32_t>(cookie);
    if (attach_fastpath_directly(program, slots_[cookie], key))
        return 0;
    // By a tail call from the plugin's program, which runs for the probe from now on.
    if (!slots_[cookie].armed && !arm(slots_[cookie], key))
        return -1;
    if (bpf_map_update_elem(bpf_->map_fd("live_fastpath"), &key, &fd, BPF_ANY) != 0)
        return fail("cannot attach a generated program to syscall::" + slots_[cookie].function + ": " +
                    std::strerror(errno));
    return 0;
}

int SyscallPlugin::start() {
    if (started_)
        return 0;
    started_ = true;
    for (uint32_t i = 0; i < slot_count_.load(std::memory_order_acquire); i++) {
        ProbeSlot &slot = slots_[i];
        if (slot.enabled && !slot.armed && slot.fastpath_link < 0 && !arm(slot, i))
            return -1;
    }
    if (!declined_bpf_)
        return 0;
    // Events dtrace's programs decline come by the ring; the table they
    // walk follows the process's mapping calls.
    user_stacks_.start_following();
    return ensure_ring() ? 0 : -1;
}

// The ring's reader, once tracing has started and the plugin's program is loaded.
bool SyscallPlugin::ensure_ring() {
    if (ring_ || !started_ || !bpf_)
        return true;
    live::Result<std::unique_ptr<live::EventRing>> ring = live::start_event_ring(
        *bpf_, host_, ops_, &misses_, [this](std::span<const uint8_t> record) { deliver(record); });
    if (!ring) {
        fail(ring.error());
        return false;
    }
    ring_ = std::move(ring.value());
    return true;
}

// Detaches first, so that the last drain sees every event there will be.
void SyscallPlugin::stop() {
    fastpath_.detach_all();
    user_stacks_.stop_following();
    for (const auto *sets : {&raw_bpf_, &call_bpf_})
        for (const std::unique_ptr<live::BpfProgramSet> &set : *sets)
            if (set)
                set->detach_all();
    if (ring_)
        ring_->stop();
    ring_.reset();
    started_ = false;
}

void SyscallPlugin::deliver(std::span<const uint8_t> record) {
    live_record header;
    std::memcpy(&header, record.data(), sizeof header);
    if (header.slot >= slot_count_.load(std::memory_order_acquire))
        return;
    const ProbeSlot &slot = slots_[header.slot];
    const dtrace_probe_id id = slot.id.load(std::memory_order_acquire);
    const uint32_t nargs = slot.is_return ? 2 : static_cast<uint32_t>(slot.shape->entry_types.size());
    dtrace_event_ctx ctx;
    if (id == 0 || !firing_.prepare(record, nargs, ctx))
        return;
    record_stacks_.add_to(firing_.stack_tail(), header.pid, header.timestamp, stacks_, ctx);
    ops_->fire(host_, id, &ctx);
}

} // namespace dtrace::syscall
