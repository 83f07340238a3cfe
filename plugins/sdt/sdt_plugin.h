// sdt_plugin.h: the sdt plugin: every kernel tracepoint as
// sdt:<group>::<event>, and the stable providers (proc, sched, io, ip, tcp,
// udp, lockstat) built on tracepoints (probe_family.h).
//
// | probe                         | kernel event                  | arguments                     |
// |-------------------------------|-------------------------------|-------------------------------|
// | sdt:<group>::<event>          | the tracepoint group:event    | its fields, typed from its format
// (tracepoint_fields.h) | | <provider>:vmlinux::<name>    | a family row's tracepoint or  | the row's builder's | | |
// sched_switch record           |                               |
//
// Probes are registered when a description names them (tracefs is read
// then: available_events, and the format files of the matching events),
// each with a probe slot: its cookie, the BPF attach cookie and its index
// in the program's configuration map. Enabling a probe arms its slot and
// attaches the one tracepoint program (bpf/sdt_events.bpf.c) to its event
// with the slot as cookie, or the sched_switch program once. Events reach
// fire() from one thread that drains the ring (live/event_ring.h), in
// timestamp order; that thread decodes the tracepoint copy and runs the
// row's builder.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <dtrace/provider.h>

#include "bpf_program_set.h"
#include "event_ring.h"
#include "fastpath_loader.h"
#include "kernel_filter.h"
#include "live_firing.h"
#include "live_options.h"
#include "packet_programs.h"
#include "probe_family.h"
#include "record_memory.h"
#include "record_stacks.h"
#include "stack_symbols.h"
#include "target_user_stacks.h"
#include "tracepoint_catalog.h"
#include "tracepoint_links.h"

namespace dtrace::sdt {

class SdtPlugin {
  public:
    SdtPlugin(dtrace_host *host, const dtrace_host_ops *ops);
    ~SdtPlugin();

    int init();
    int provide(const dtrace_probe_spec *spec);
    int enable(dtrace_probe_id probe, uint64_t cookie);
    void disable(dtrace_probe_id probe, uint64_t cookie);
    // The disjunction of the probe's clauses' hoistable predicates, checked
    // in the BPF program from now on (see live/kernel_filter.h).
    int set_filters(dtrace_probe_id probe, uint64_t cookie, uint32_t nfilters, const dtrace_filter *filters);
    int start();
    void stop();

    // Names the addresses of stack() and ustack() (the live stack helper).
    int lookup_symbol(uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out) {
        return stacks_.lookup(space, pid, address, out) ? 0 : -1;
    }

    // The in-kernel fast path (dtrace_fastpath_ops, sdt_fastpath.cpp): a
    // probe's layout, maps and programs through fastpath_, a program run by
    // the tracepoint program's tail call or attached to sched_switch.
    int fastpath_layout(dtrace_probe_id probe, uint64_t cookie, dtrace_fastpath_probe &out) const;
    int attach_fastpath_program(int32_t program, dtrace_probe_id probe, uint64_t cookie);
    live::FastpathLoader &fastpath_loader() { return fastpath_; } // maps and rings (plugin_entry.h)
    // The tracing machinery's frames atop a kernel stack a program took (stack() keys).
    uint32_t fastpath_kernel_stack_skip(std::span<const uint64_t> frames) {
        return static_cast<uint32_t>(stacks_.tracing_frames(frames));
    }
    // ustack() keys in the kernel (docs/fastpath.md, "Stacks";
    // sdt_user_stacks.cpp): $target's table in the walk's maps, and the way
    // back of an event the walk declined.
    int fastpath_fill_user_stacks(dtrace_probe_id, uint64_t, int32_t rows, int32_t blocks, int32_t mappings) {
        return user_stacks_.fill({rows, blocks, mappings});
    }
    int fastpath_fill_way_back(dtrace_probe_id probe, uint64_t cookie, int32_t program_array);

    dtrace_host *host() const { return host_; }
    const dtrace_host_ops *ops() const { return ops_; }

  private:
    struct ProbeSlot {
        const StableProbe *row = nullptr; // nullptr: an sdt probe
        std::string group, event;         // its tracepoint (a row's, or the sdt probe's)
        const live::TracepointFormat *format = nullptr;
        // The fields args are built from: the row's, resolved; all of an sdt event's.
        std::vector<const live::TracepointField *> fields;
        std::vector<std::string> arg_types;                // an sdt probe's
        const live::TracepointField *wait_flags = nullptr; // in the row's wait_begin, resolved
        std::atomic<dtrace_probe_id> id{0};
        bool enabled = false;
        std::optional<uint32_t> link;       // its tracepoint's, while enabled
        std::optional<uint32_t> begin_link; // its wait_begin tracepoint's, while enabled
        live::ProbeFilter filter;
        uint32_t stacks = 0;    // LIVE_STACK_*: what the clauses read
        bool in_kernel = false; // runs a program of dtrace's (sdt_fastpath.cpp)
        int switch_link = -1;   // a sched probe's: that program attached to sched_switch
        bool way_back = false;  // dtrace's program may decline its events (fastpath_fill_way_back)
    };

    int fail(const std::string &message);
    dtrace_provider_id register_provider(const char *name, const dtrace_provider_attributes &attributes,
                                         const char *d_source);
    int provide_sdt(const dtrace_probe_spec *spec);
    int provide_stable(const dtrace_probe_spec *spec);
    std::optional<uint32_t> new_slot();
    bool register_slot(uint32_t slot, dtrace_provider_id provider, const char *module, const char *function,
                       const char *name, std::span<const dtrace_arg_desc> args);
    const live::TracepointFormat *format_for(const std::string &probe, const std::string &group,
                                             const std::string &event);
    const live::TracepointField *field_for(const std::string &probe, const live::TracepointFormat &format,
                                           std::string_view name);
    bool resolve(ProbeSlot &slot);
    // bpf/sdt_events.bpf.c's object: its programs are loaded as they are needed.
    static std::span<const uint8_t> events_image();
    bool ensure_loaded();
    bool enable_tracepoint(uint32_t index, ProbeSlot &slot);
    bool enable_wait_begin(uint32_t index, ProbeSlot &slot);
    bool enable_switch(uint32_t index, ProbeSlot &slot);
    bool enable_packets(uint32_t index, ProbeSlot &slot);
    // The configuration the BPF program reads for one probe (at its row's
    // wait_begin tracepoint, or its own), or for a link (its members'
    // together; `joining` is about to become one).
    live_probe_config config_of(const ProbeSlot &slot, bool wait_begin) const;
    live_probe_config link_config(uint32_t link, std::optional<uint32_t> joining) const;
    bool configure_link(uint32_t link, std::optional<uint32_t> joining = std::nullopt);
    // Why the probe cannot run dtrace's programs; nullptr: it can.
    const char *fastpath_unavailable(const ProbeSlot &slot) const;
    void fill_tracepoint_layout(const ProbeSlot &slot, dtrace_fastpath_probe &out) const;
    bool attach_switch_program(uint32_t index, ProbeSlot &slot, int program_fd);
    // Why ustack() keys cannot be walked from the current task at the probe; nullptr: they can.
    const char *user_stacks_elsewhere(const ProbeSlot &slot) const;
    // Where fastpath_layout says a walk of the user stack starts (or why it cannot).
    void describe_user_stacks(const ProbeSlot &slot, dtrace_fastpath_probe &out) const;
    // Loads the ways back's programs (sdt_declined_event, sdt_declined_off_cpu) once.
    bool ensure_way_back();
    // Takes the probe's program away (disable(), stop()).
    void detach_fastpath(ProbeSlot &slot);
    void deliver(std::span<const uint8_t> record);
    void fire_slot(uint32_t index, const live_record &header, std::span<const uint8_t> captures, dtrace_event_ctx ctx);
    static int64_t read(void *state, uint64_t address, void *buffer, size_t length);
    int64_t read_psargs(uint64_t address, void *buffer, size_t length) const;

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    dtrace_provider_id sdt_provider_ = 0;
    std::vector<std::pair<std::string, dtrace_provider_id>> stable_providers_;
    TracepointCatalog catalog_;
    // Fixed storage: the ring thread reads slots while provide() adds more.
    std::unique_ptr<ProbeSlot[]> slots_;
    std::atomic<uint32_t> slot_count_{0};
    std::vector<std::optional<uint32_t>> row_slots_; // per stable row (stable_rows() order)
    std::map<std::string, uint32_t> sdt_slots_;      // "group:event" of the sdt probes registered
    live::LiveOptions options_;
    live::RecursionMisses misses_; // of every program below, read by ring_
    std::unique_ptr<live::BpfProgramSet> bpf_;
    live::BpfLoadSettings load_settings_; // bpf_'s, for the objects sharing its maps
    PacketPrograms packets_;
    TracepointLinks links_;
    std::optional<size_t> switch_attachment_;
    uint32_t switch_users_ = 0;
    std::unique_ptr<live::EventRing> ring_;
    live::LiveFiring firing_;
    live::stacks::StackSymbols stacks_;
    live::RecordStacks record_stacks_;
    RecordMemory memory_;
    OtherThread other_;
    std::string psargs_; // the firing's process arguments, when captured at the event
    bool started_ = false;
    live::FastpathLoader fastpath_;                     // the maps and programs dtrace generated (sdt_fastpath.cpp)
    std::unique_ptr<live::BpfProgramSet> declined_bpf_; // the ways back (sdt_user_stacks.cpp)
    live::TargetUserStacks user_stacks_;                // $target's table in the walk's maps
};

} // namespace dtrace::sdt
