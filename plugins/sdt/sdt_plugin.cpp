// sdt_plugin.cpp: registering, arming and firing sdt and stable probes.
#include "sdt_plugin.h"

#include <algorithm>
#include <cstring>
#include <fnmatch.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "live_plugin_setup.h"
#include "process_library.h"
#include "sdk_filter.h"
#include "sdt_library.h"

extern "C" {
extern const unsigned char sdt_events_bpf_object[];
extern const size_t sdt_events_bpf_object_size;
}

namespace dtrace::sdt {

namespace {

constexpr const char *kSdtProvider = "sdt";
constexpr const char *kStableModule = "vmlinux"; // the stable providers' probes are the kernel's
constexpr const char *kTracepointProgram = "sdt_tracepoint";
constexpr const char *kSwitchProgram = "sdt_switch";

// The stable providers' attributes (DTrace's for proc, sched, io ...).
constexpr dtrace_provider_attributes kStableAttributes = {
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
};
// sdt's: the kernel's tracepoints are its private interfaces.
constexpr dtrace_provider_attributes kSdtAttributes = {
    {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
    {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_ISA},
};

bool matches(const char *pattern, const char *name) {
    return pattern == nullptr || pattern[0] == '\0' || fnmatch(pattern, name, 0) == 0;
}

bool matches(const char *pattern, std::string_view name) {
    return matches(pattern, std::string(name).c_str());
}

// The rows of every family, in table order.
const std::vector<const StableProbe *> &stable_rows() {
    static const std::vector<const StableProbe *> rows = [] {
        std::vector<const StableProbe *> all;
        for (std::span<const StableProbe> family : stable_families())
            for (const StableProbe &row : family)
                all.push_back(&row);
        return all;
    }();
    return rows;
}

// psinfo's pr_psargs from the arguments the program copied: NULs between
// them become blanks, cut at PRARGSZ (80) as /proc's are.
std::string psargs_of(std::span<const uint8_t> captured) {
    constexpr size_t kPsargsMax = 80;
    std::string text(reinterpret_cast<const char *>(captured.data()), captured.size());
    for (char &c : text)
        c = c == '\0' ? ' ' : c;
    while (!text.empty() && text.back() == ' ')
        text.pop_back();
    if (text.size() > kPsargsMax)
        text.resize(kPsargsMax);
    return text;
}

} // namespace

SdtPlugin::SdtPlugin(dtrace_host *host, const dtrace_host_ops *ops)
    : host_(host), ops_(ops), slots_(std::make_unique<ProbeSlot[]>(LIVE_MAX_PROBES)), row_slots_(stable_rows().size()),
      fastpath_(host, ops, &misses_), user_stacks_(host, ops, fastpath_, stacks_) {}

SdtPlugin::~SdtPlugin() {
    stop();
}

int SdtPlugin::fail(const std::string &message) {
    ops_->report_error(host_, message.c_str());
    return -1;
}

dtrace_provider_id SdtPlugin::register_provider(const char *name, const dtrace_provider_attributes &attributes,
                                                const char *d_source) {
    dtrace_provider_info info{};
    info.struct_size = sizeof info;
    info.name = name;
    info.attributes = attributes;
    info.d_source = d_source;
    return ops_->register_provider(host_, &info);
}

int SdtPlugin::init() {
    if (live::register_live_libraries(host_, ops_) != 0) // psinfo_t, lwpsinfo_t, curpsinfo
        return -1;
    sdt_provider_ = register_provider(kSdtProvider, kSdtAttributes, sdt_d_library().c_str());
    if (sdt_provider_ == 0)
        return -1;
    for (const StableProbe *row : stable_rows()) {
        const std::string name(row->provider);
        if (std::any_of(stable_providers_.begin(), stable_providers_.end(),
                        [&](const auto &p) { return p.first == name; }))
            continue;
        dtrace_provider_id id = register_provider(name.c_str(), kStableAttributes, nullptr);
        if (id == 0)
            return -1;
        stable_providers_.emplace_back(name, id);
    }
    return 0;
}

int SdtPlugin::provide(const dtrace_probe_spec *spec) {
    if (provide_stable(spec) != 0)
        return -1;
    if (spec && !matches(spec->provider, kSdtProvider))
        return 0;
    return provide_sdt(spec);
}

std::optional<uint32_t> SdtPlugin::new_slot() {
    const uint32_t count = slot_count_.load(std::memory_order_acquire);
    if (count == TracepointLinks::kFirstConfig)
        return std::nullopt;
    return count;
}

bool SdtPlugin::register_slot(uint32_t index, dtrace_provider_id provider, const char *module, const char *function,
                              const char *name, std::span<const dtrace_arg_desc> args) {
    dtrace_probe_desc desc{};
    desc.struct_size = sizeof desc;
    desc.module = module;
    desc.function = function;
    desc.name = name;
    desc.nargs = static_cast<uint32_t>(args.size());
    desc.args = args.empty() ? nullptr : args.data();
    desc.cookie = index;
    slot_count_.store(index + 1, std::memory_order_release); // the slot is complete before its probe exists
    dtrace_probe_id id = ops_->register_probe(host_, provider, &desc);
    if (id == 0)
        return false;
    slots_[index].id.store(id, std::memory_order_release);
    return true;
}

int SdtPlugin::provide_stable(const dtrace_probe_spec *spec) {
    if (spec && (!matches(spec->module, kStableModule) || !matches(spec->function, "")))
        return 0;
    const std::vector<const StableProbe *> &rows = stable_rows();
    for (size_t r = 0; r < rows.size(); ++r) {
        const StableProbe &row = *rows[r];
        if (row_slots_[r] || (spec && (!matches(spec->provider, row.provider) || !matches(spec->name, row.name))))
            continue;
        std::optional<uint32_t> index = new_slot();
        if (!index)
            return fail("more than " + std::to_string(TracepointLinks::kFirstConfig) + " sdt probes");
        ProbeSlot &slot = slots_[*index];
        slot.row = &row;
        slot.group = row.group;
        slot.event = row.event;
        const std::string provider(row.provider), name(row.name);
        const auto found = std::find_if(stable_providers_.begin(), stable_providers_.end(),
                                        [&](const auto &p) { return p.first == provider; });
        if (!register_slot(*index, found->second, kStableModule, "", name.c_str(), row.args))
            return -1;
        row_slots_[r] = *index;
    }
    return 0;
}

int SdtPlugin::provide_sdt(const dtrace_probe_spec *spec) {
    live::Result<const std::vector<Tracepoint> *> all = catalog_.all();
    if (!all)
        return fail(all.error());
    for (const Tracepoint &t : *all.value()) {
        if (spec && (!matches(spec->module, t.group) || !matches(spec->function, "") || !matches(spec->name, t.event)))
            continue;
        const std::string key = t.group + ":" + t.event;
        if (sdt_slots_.contains(key))
            continue;
        live::Result<const live::TracepointFormat *> format = catalog_.format(t.group, t.event);
        if (!format)
            continue; // an event without a readable format (ftrace's own) cannot be traced
        std::optional<uint32_t> index = new_slot();
        if (!index)
            return fail("more than " + std::to_string(TracepointLinks::kFirstConfig) + " sdt probes");
        ProbeSlot &slot = slots_[*index];
        slot.group = t.group;
        slot.event = t.event;
        slot.format = format.value();
        slot.fields = format.value()->event_fields();
        if (slot.fields.size() > kMaxProbeArgs)
            slot.fields.resize(kMaxProbeArgs);
        std::vector<dtrace_arg_desc> args(slot.fields.size());
        slot.arg_types.reserve(slot.fields.size());
        for (size_t i = 0; i < slot.fields.size(); ++i) {
            slot.arg_types.push_back(d_type_of(*slot.fields[i]));
            args[i] = probe_arg(slot.arg_types[i].c_str(), static_cast<uint8_t>(i));
        }
        if (!register_slot(*index, sdt_provider_, t.group.c_str(), "", t.event.c_str(), args))
            return -1;
        sdt_slots_.emplace(key, *index);
    }
    return 0;
}

// A tracepoint's format, or a failure naming the probe that needs it.
const live::TracepointFormat *SdtPlugin::format_for(const std::string &probe, const std::string &group,
                                                    const std::string &event) {
    if (!catalog_.exists(group, event)) {
        fail(probe + " needs the kernel tracepoint " + group + ":" + event + ", which this kernel does not have");
        return nullptr;
    }
    live::Result<const live::TracepointFormat *> format = catalog_.format(group, event);
    if (!format) {
        fail(probe + ": " + format.error());
        return nullptr;
    }
    return format.value();
}

// The field `name` of group:event, or a failure naming the probe.
const live::TracepointField *SdtPlugin::field_for(const std::string &probe, const live::TracepointFormat &format,
                                                  std::string_view name) {
    for (const live::TracepointField &f : format.fields)
        if (f.name == name)
            return &f;
    fail(probe + ": the kernel's tracepoint " + format.name + " has no field " + std::string(name));
    return nullptr;
}

// A stable row's tracepoints and fields, checked against this kernel.
bool SdtPlugin::resolve(ProbeSlot &slot) {
    if (slot.format != nullptr || slot.row == nullptr || slot.row->source != EventSource::Tracepoint)
        return true;
    const StableProbe &row = *slot.row;
    const std::string probe = std::string(row.provider) + ":::" + std::string(row.name);
    const live::TracepointFormat *format = format_for(probe, slot.group, slot.event);
    if (format == nullptr)
        return false;
    std::vector<const live::TracepointField *> fields;
    for (std::string_view name : row.fields) {
        fields.push_back(field_for(probe, *format, name));
        if (fields.back() == nullptr)
            return false;
    }
    if (!row.wait_begin.empty()) {
        const live::TracepointFormat *begin = format_for(probe, slot.group, std::string(row.wait_begin));
        if (begin == nullptr || (slot.wait_flags = field_for(probe, *begin, row.wait_flags)) == nullptr)
            return false;
    }
    slot.fields = std::move(fields);
    slot.format = format;
    return true;
}

std::span<const uint8_t> SdtPlugin::events_image() {
    return {sdt_events_bpf_object, sdt_events_bpf_object_size};
}

bool SdtPlugin::ensure_loaded() {
    if (bpf_)
        return true;
    live::Result<live::LoadedObject> loaded = live::load_live_object(
        host_, ops_, events_image(), kSdtProvider, &misses_, live::load_only({kTracepointProgram, kSwitchProgram}));
    if (!loaded) {
        fail(loaded.error());
        return false;
    }
    bpf_ = std::move(loaded.value().programs);
    options_ = loaded.value().options;
    load_settings_ = std::move(loaded.value().settings);
    return true;
}

live_probe_config SdtPlugin::config_of(const ProbeSlot &slot, bool wait_begin) const {
    live_probe_config config{};
    config.armed = 1;
    if (wait_begin) { // the program only keeps the thread's wait
        config.captures[0].mode = SDT_CAPTURE_LOCK_BEGIN;
        config.captures[0].arg = static_cast<uint8_t>(slot.wait_flags->offset);
    } else if (slot.wait_flags != nullptr) {
        config.captures[0].mode = SDT_CAPTURE_LOCK_END;
    }
    if (slot.format != nullptr && !wait_begin)
        config.capture_limit = capture_bytes(*slot.format, live::capture_limit(host_, ops_));
    if (slot.row != nullptr && slot.row->capture_psargs)
        config.captures[1].mode = SDT_CAPTURE_PSARGS;
    if (options_.kernel_filter)
        config.filter = live::encode_filter(slot.filter, 0); // arguments are decoded in user space
    if (!wait_begin) {
        config.stacks = slot.stacks;
        config.user_stack_bytes = LIVE_USER_STACK_MAX;
    }
    return config;
}

// What every member needs: the largest copy, the arguments if one wants
// them, and an event any member's filter passes.
live_probe_config SdtPlugin::link_config(uint32_t link, std::optional<uint32_t> joining) const {
    live_probe_config config{};
    config.armed = 1;
    live::ProbeFilter filter{false, {}};
    bool plain = false; // a member wants every event of the tracepoint
    auto add = [&](uint32_t index) {
        const ProbeSlot &slot = slots_[index];
        const live_probe_config own = config_of(slot, slot.begin_link == link);
        plain = plain || own.captures[0].mode == LIVE_CAPTURE_NONE;
        config.capture_limit = std::max(config.capture_limit, own.capture_limit);
        for (int i = 0; i < LIVE_MAX_CAPTURES; ++i)
            if (own.captures[i].mode != LIVE_CAPTURE_NONE)
                config.captures[i] = own.captures[i];
        config.stacks |= own.stacks;
        config.user_stack_bytes = std::max(config.user_stack_bytes, own.user_stack_bytes);
        filter.everything = filter.everything || slot.filter.everything;
        filter.any_of.insert(filter.any_of.end(), slot.filter.any_of.begin(), slot.filter.any_of.end());
    };
    links_.for_each_member(TracepointLinks::config_slot(link), add);
    if (joining)
        add(*joining);
    const uint8_t mode = config.captures[0].mode;
    if (plain && (mode == SDT_CAPTURE_LOCK_BEGIN || mode == SDT_CAPTURE_LOCK_END))
        config.captures[0].length_arg = 1; // lockstat's pairing, and every event for the others
    if (options_.kernel_filter)
        config.filter = live::encode_filter(filter, 0);
    return config;
}

bool SdtPlugin::configure_link(uint32_t link, std::optional<uint32_t> joining) {
    live::Status configured = bpf_->configure(TracepointLinks::config_slot(link), link_config(link, joining));
    if (!configured)
        fail(configured.error());
    return configured.ok();
}

bool SdtPlugin::enable_tracepoint(uint32_t index, ProbeSlot &slot) {
    live::Result<uint32_t> link = links_.link_for(slot.group, slot.event);
    if (!link) {
        fail(link.error());
        return false;
    }
    if (!configure_link(link.value(), index))
        return false;
    if (live::Status added = links_.add(*bpf_, link.value(), index); !added) {
        fail(added.error());
        return false;
    }
    slot.link = link.value();
    if (slot.wait_flags != nullptr) // the tracepoint where the waits begin, first
        return enable_wait_begin(index, slot);
    return true;
}

// The program sees the row's wait_begin tracepoint too (it writes no record
// there): the slot is a member of its link, configured to keep the waits.
bool SdtPlugin::enable_wait_begin(uint32_t index, ProbeSlot &slot) {
    live::Result<uint32_t> link = links_.link_for(slot.group, std::string(slot.row->wait_begin));
    if (!link) {
        fail(link.error());
        return false;
    }
    slot.begin_link = link.value();
    if (!configure_link(link.value(), index))
        return false;
    if (live::Status added = links_.add(*bpf_, link.value(), index); !added) {
        fail(added.error());
        return false;
    }
    return true;
}

bool SdtPlugin::enable_switch(uint32_t index, ProbeSlot &slot) {
    if (live::Status configured = bpf_->configure(index, config_of(slot, false)); !configured) {
        fail(configured.error());
        return false;
    }
    const uint32_t kind = static_cast<uint32_t>(slot.row->source) - 1, value = index + 1;
    if (bpf_map_update_elem(bpf_->map_fd("sdt_switch_slots"), &kind, &value, BPF_ANY) != 0) {
        fail("cannot arm the sched_switch program: " + std::string(std::strerror(errno)));
        return false;
    }
    if (!switch_attachment_) {
        live::Result<size_t> attached = bpf_->attach_program(kSwitchProgram);
        if (!attached) {
            fail(attached.error());
            return false;
        }
        switch_attachment_ = attached.value();
    }
    switch_users_++;
    return true;
}

bool SdtPlugin::enable_packets(uint32_t index, ProbeSlot &slot) {
    if (live::Status configured = bpf_->configure(index, config_of(slot, false)); !configured) {
        fail(configured.error());
        return false;
    }
    if (live::Status enabled = packets_.enable(*slot.row, index, *bpf_, load_settings_); !enabled) {
        fail(enabled.error());
        return false;
    }
    return true;
}

int SdtPlugin::enable(dtrace_probe_id, uint64_t cookie) {
    if (cookie >= slot_count_.load(std::memory_order_acquire))
        return fail("enabling an unknown sdt probe (cookie " + std::to_string(cookie) + ")");
    ProbeSlot &slot = slots_[cookie];
    if (slot.enabled)
        return 0;
    if (!resolve(slot) || !ensure_loaded())
        return -1;
    const uint32_t index = static_cast<uint32_t>(cookie);
    const bool tracepoint = slot.row == nullptr || slot.row->source == EventSource::Tracepoint;
    const bool packets = !tracepoint && PacketPrograms::serves(*slot.row);
    if (!(tracepoint ? enable_tracepoint(index, slot)
          : packets  ? enable_packets(index, slot)
                     : enable_switch(index, slot)))
        return -1;
    slot.enabled = true;
    return 0;
}

void SdtPlugin::disable(dtrace_probe_id, uint64_t cookie) {
    if (cookie >= slot_count_.load(std::memory_order_acquire) || !bpf_)
        return;
    ProbeSlot &slot = slots_[cookie];
    if (!slot.enabled)
        return;
    const uint32_t index = static_cast<uint32_t>(cookie);
    const bool in_kernel = slot.in_kernel; // a sched probe's then no longer counts among the switch program's users
    detach_fastpath(slot);
    slot.way_back = false;
    if (slot.link) {
        for (std::optional<uint32_t> *link : {&slot.link, &slot.begin_link}) {
            if (*link) {
                links_.remove(*bpf_, **link, index);
                configure_link(**link);
            }
            link->reset();
        }
    } else if (PacketPrograms::serves(*slot.row)) {
        packets_.disable(*slot.row);
        (void)bpf_->configure(index, live_probe_config{});
    } else {
        const uint32_t kind = static_cast<uint32_t>(slot.row->source) - 1, none = 0;
        bpf_map_update_elem(bpf_->map_fd("sdt_switch_slots"), &kind, &none, BPF_ANY);
        if (!in_kernel && --switch_users_ == 0 && switch_attachment_) {
            bpf_->detach(*switch_attachment_);
            switch_attachment_.reset();
        }
        (void)bpf_->configure(index, live_probe_config{});
    }
    slot.enabled = false;
}

int SdtPlugin::set_filters(dtrace_probe_id id, uint64_t cookie, uint32_t nfilters, const dtrace_filter *filters) {
    if (cookie >= slot_count_.load(std::memory_order_acquire))
        return fail("filtering an unknown sdt probe (cookie " + std::to_string(cookie) + ")");
    ProbeSlot &slot = slots_[cookie];
    slot.filter = live::probe_filter_of(nfilters, filters);
    // Every clause of the probe is enabled by now: the stacks they read.
    slot.stacks = live::stacks_for_usage(host_, ops_, id);
    if (!live::prepare_stacks(host_, ops_, slot.stacks, stacks_))
        return -1;
    if (!slot.enabled || !bpf_)
        return 0; // applied when the probe is enabled
    if (slot.link)
        return configure_link(*slot.link) && (!slot.begin_link || configure_link(*slot.begin_link)) ? 0 : -1;
    if (live::Status configured = bpf_->configure(static_cast<uint32_t>(cookie), config_of(slot, false)); !configured)
        return fail(configured.error());
    return 0;
}

int SdtPlugin::start() {
    if (!bpf_ || started_)
        return 0;
    live::Result<std::unique_ptr<live::EventRing>> ring = live::start_event_ring(
        *bpf_, host_, ops_, &misses_, [this](std::span<const uint8_t> record) { deliver(record); });
    if (!ring)
        return fail(ring.error());
    ring_ = std::move(ring.value());
    started_ = true;
    if (declined_bpf_) // events dtrace's programs decline come by the ring
        user_stacks_.start_following();
    return 0;
}

// Detaches first, so that the last drain sees every event there will be.
void SdtPlugin::stop() {
    user_stacks_.stop_following();
    for (uint32_t i = 0; i < slot_count_.load(std::memory_order_acquire); i++)
        if (slots_[i].switch_link >= 0) { // a sched probe's generated program
            close(slots_[i].switch_link);
            slots_[i].switch_link = -1;
        }
    packets_.detach_all();
    if (bpf_)
        bpf_->detach_all();
    links_.forget_attachments();
    switch_attachment_.reset();
    if (ring_)
        ring_->stop();
    ring_.reset();
    started_ = false;
}

// The firing's memory: the family's records, another thread's, the process
// arguments captured at exec, then the live library's (psinfo, the
// tracepoint copy, the process).
int64_t SdtPlugin::read(void *state, uint64_t address, void *buffer, size_t length) {
    auto *self = static_cast<SdtPlugin *>(state);
    if (RecordMemory::owns(address))
        return self->memory_.read(address, buffer, length);
    if (OtherThread::owns(address))
        return self->other_.read(address, buffer, length);
    const uint64_t psargs = live::text_address(live::ProcessText::Psargs);
    if (!self->psargs_.empty() && address >= psargs && address - psargs < live::kProcessTextSlot)
        return self->read_psargs(address - psargs, buffer, length);
    return live::LiveFiring::read(&self->firing_, address, buffer, length);
}

int64_t SdtPlugin::read_psargs(uint64_t offset, void *buffer, size_t length) const {
    if (offset > psargs_.size())
        return -1;
    const size_t n = std::min<size_t>(length, psargs_.size() + 1 - offset); // with its NUL
    std::memcpy(buffer, psargs_.c_str() + offset, n);
    return static_cast<int64_t>(n);
}

void SdtPlugin::deliver(std::span<const uint8_t> record) {
    live_record header;
    if (record.size() < sizeof header)
        return;
    std::memcpy(&header, record.data(), sizeof header);
    dtrace_event_ctx ctx;
    if (!firing_.prepare(record, 0, ctx))
        return;
    record_stacks_.add_to(firing_.stack_tail(), header.pid, header.timestamp, stacks_, ctx);
    // prepare() checked that the captures fit the record.
    const std::span<const uint8_t> captures = record.subspan(sizeof header);
    if (TracepointLinks::is_config_slot(header.slot))
        links_.for_each_member(header.slot, [&](uint32_t slot) { fire_slot(slot, header, captures, ctx); });
    else
        fire_slot(header.slot, header, captures, ctx);
}

void SdtPlugin::fire_slot(uint32_t index, const live_record &header, std::span<const uint8_t> captures,
                          dtrace_event_ctx ctx) {
    if (index >= slot_count_.load(std::memory_order_acquire))
        return;
    const ProbeSlot &slot = slots_[index];
    const dtrace_probe_id id = slot.id.load(std::memory_order_acquire);
    if (id == 0)
        return;
    const RawRecord raw(captures.first(header.capture_length[0]));
    psargs_ = psargs_of(captures.subspan(header.capture_length[0], header.capture_length[1]));
    memory_.reset();
    ProbeArgs args{};
    size_t nargs = 0;
    const ArgContext context{header, raw, slot.fields, memory_, other_};
    if (slot.row == nullptr) {
        for (const live::TracepointField *field : slot.fields)
            args[nargs++] = raw.arg(*field);
    } else {
        if (slot.row->accept != nullptr && !slot.row->accept(context))
            return;
        if (slot.row->build != nullptr)
            nargs = slot.row->build(context, args);
    }
    ctx.nargs = static_cast<uint32_t>(nargs);
    ctx.args = args.data();
    ctx.read_memory = &SdtPlugin::read;
    ctx.reader_state = this;
    // The arguments point into kernel-half copies (the tracepoint's record,
    // the translated records): D's plain loads (stringof(args[0]), *args[1])
    // read them as DTrace reads kernel memory, not only copyin().
    ctx.flags |= DTRACE_EVENT_KERNEL_MEMORY;
    ops_->fire(host_, id, &ctx);
}

} // namespace dtrace::sdt
