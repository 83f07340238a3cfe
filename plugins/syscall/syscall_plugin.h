// syscall_plugin.h: the syscall provider, live: syscall::<name>:entry and
// syscall::<name>:return for every system call of the running kernel.
//
// | probe                    | kernel event                    | arguments                            |
// |--------------------------|---------------------------------|--------------------------------------|
// | syscall::<name>:entry    | syscalls:sys_enter_<name>       | the call's, typed from its format    |
// | syscall::<name>:return   | syscalls:sys_exit_<name>        | arg0 = arg1 = return value (-1 on    |
// |                          |                                 | failure), errno set                  |
//
// The module is empty, as DTrace on Linux shows it. Probes are registered
// when a description names them (nothing of tracefs is read before), each
// with a probe slot: its cookie, the BPF attach cookie, and its index in
// the program's configuration map. Enabling a probe arms its slot and
// attaches a program to the call's own tracepoint; a probe of a description
// that names many calls (syscall:::entry), or enabled after many others of
// its direction, is instead found by call number by the raw_syscalls
// program of its direction, attached once (hundreds of tracepoints take
// seconds to detach). Each direction's program is loaded at the first
// enabling that needs it (the verifier takes tens of milliseconds per
// program: a script of entry probes never pays for the return program), and
// every object shares the first one's maps (one ring). Events reach fire() from one thread that drains the ring buffer
// (live/event_ring.h), in timestamp order.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include <dtrace/provider.h>

#include "bpf_program_set.h"
#include "event_ring.h"
#include "fastpath_loader.h"
#include "kernel_filter.h"
#include "live_firing.h"
#include "live_options.h"
#include "record_stacks.h"
#include "stack_symbols.h"
#include "syscall_catalog.h"
#include "target_user_stacks.h"

namespace dtrace::syscall {

class SyscallPlugin {
  public:
    SyscallPlugin(dtrace_host *host, const dtrace_host_ops *ops);
    ~SyscallPlugin();

    int init();
    int provide(const dtrace_probe_spec *spec);
    int enable(dtrace_probe_id probe, uint64_t cookie);
    void disable(dtrace_probe_id probe, uint64_t cookie);
    // The disjunction of the probe's clauses' hoistable predicates, checked
    // in the BPF program from now on (see live/kernel_filter.h).
    int set_filters(dtrace_probe_id probe, uint64_t cookie, uint32_t nfilters, const dtrace_filter *filters);
    int start();
    void stop();
    // The in-kernel fast path (dtrace_fastpath_ops): a probe's layout,
    // maps and programs, the program run instead of delivering the events.
    int fastpath_layout(dtrace_probe_id probe, uint64_t cookie, dtrace_fastpath_probe &out) const;
    int attach_fastpath_program(int32_t program, dtrace_probe_id probe, uint64_t cookie);
    live::FastpathLoader &fastpath_loader() { return fastpath_; } // maps and rings (plugin_entry.h)
    static constexpr bool kSharesFastpathPrograms = true;         // by the probe word (fastpath_layout)
    // The tracing machinery's frames atop a kernel stack a program took (stack() keys).
    uint32_t fastpath_kernel_stack_skip(std::span<const uint64_t> frames) {
        return static_cast<uint32_t>(stacks_.tracing_frames(frames));
    }

    // ustack() keys in the kernel (docs/fastpath.md, "Stacks";
    // syscall_user_stacks.cpp): $target's table in the walk's maps
    // (fill_user_stack_maps), and the way back of an event the walk
    // declined (fill_way_back).
    int fastpath_fill_user_stacks(dtrace_probe_id, uint64_t, int32_t rows, int32_t blocks, int32_t mappings) {
        return user_stacks_.fill({rows, blocks, mappings});
    }
    int fastpath_fill_way_back(dtrace_probe_id probe, uint64_t cookie, int32_t program_array);

    // Names the addresses of stack() and ustack() (the live stack helper).
    int lookup_symbol(uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out) {
        return stacks_.lookup(space, pid, address, out) ? 0 : -1;
    }

    dtrace_host *host() const { return host_; }
    const dtrace_host_ops *ops() const { return ops_; }

  private:
    struct ProbeSlot {
        std::string function;
        bool is_return = false;
        const SyscallShape *shape = nullptr;
        std::atomic<dtrace_probe_id> id{0};
        bool enabled = false;
        bool armed = false;               // the plugin's program delivers its events (arm())
        std::optional<size_t> attachment; // its own tracepoint's
        int32_t fastpath_link = -1;       // the generated program on its own tracepoint (fastpath_)
        bool raw = false;                 // found by number by the raw_syscalls program
        bool wide = false;                // named by a description that names many calls
        live::ProbeFilter filter;
        uint32_t stacks = 0;   // LIVE_STACK_*: what the clauses read
        bool way_back = false; // dtrace's program may decline its events (fastpath_fill_way_back)
    };
    enum Direction { kEntry = 0, kReturn = 1 };
    // The way back of an event dtrace's program declined (syscall_events.bpf.c).
    static constexpr const char *kDeclinedProgram = "syscall_declined_event";

    int fail(const std::string &message);
    bool register_call(const std::string &name, const char *name_pattern, bool wide);
    std::optional<uint32_t> slot_for(const std::string &function, bool is_return);
    bool ensure_loaded(Direction direction);
    bool load_events_object(const char *program, std::unique_ptr<live::BpfProgramSet> &into);
    bool use_raw(Direction direction);
    bool set_raw_slot(const ProbeSlot &slot, Direction direction, uint32_t value);
    live_probe_config config_of(const ProbeSlot &slot) const;
    bool attach_fastpath_directly(int32_t program, ProbeSlot &slot, uint32_t index);
    bool goes_raw(const ProbeSlot &slot) const;
    bool arm(ProbeSlot &slot, uint32_t index);
    bool ensure_ring();
    void deliver(std::span<const uint8_t> record);
    // Where fastpath_layout says a walk of the user stack starts (or why it cannot).
    void describe_user_stacks(dtrace_fastpath_probe &out) const;
    // Loads the way back's program (syscall_declined_event) once.
    bool ensure_way_back();

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    dtrace_provider_id provider_ = 0;
    SyscallCatalog catalog_;
    // Fixed storage: the ring thread reads slots while provide() adds more.
    std::unique_ptr<ProbeSlot[]> slots_;
    std::atomic<uint32_t> slot_count_{0};
    live::LiveOptions options_;
    live::RecursionMisses misses_; // of every program below, read by ring_
    // Per Direction: the per-call object and the raw_syscalls one, each with
    // that direction's program only; every one shares bpf_'s maps.
    std::unique_ptr<live::BpfProgramSet> call_bpf_[2];
    std::unique_ptr<live::BpfProgramSet> raw_bpf_[2];
    live::BpfProgramSet *bpf_ = nullptr;      // the first object loaded: the maps' owner
    live::BpfLoadSettings settings_;          // bpf_'s (the watermark), for the others
    std::optional<size_t> raw_attachment_[2]; // per Direction
    uint32_t enabled_count_[2] = {0, 0};
    std::unique_ptr<live::EventRing> ring_;
    live::LiveFiring firing_;
    live::stacks::StackSymbols stacks_;
    live::RecordStacks record_stacks_;
    live::FastpathLoader fastpath_;
    std::unique_ptr<live::BpfProgramSet> declined_bpf_; // the way back (syscall_declined_event)
    live::TargetUserStacks user_stacks_;                // $target's table in the walk's maps
    bool started_ = false;
};

} // namespace dtrace::syscall
