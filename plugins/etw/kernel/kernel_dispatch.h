// kernel_dispatch.h: kernel events to the kernel providers' probes.
//
// For each replayed event of a kernel class: decode it with the MOF table,
// let it update what the plugin knows (processes, threads, files, keys,
// images), then fire the enabled probes of its class and opcode
// (kernel_probes.h) in table order, each with its own pid/tid, execname and
// arguments built in KernelMemory by its family's builder (probe_family.h). Events that teach the plugin nothing and
// that no probe wants (ReadyThread, samples, system calls ...) cost one
// class lookup; a context switch that no probe wants, the lookups of its two
// threads (context_switch.h).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include <dtrace/provider.h>

#include "kernel/context_switch.h"
#include "kernel/kernel_memory.h"
#include "kernel/kernel_probes.h"
#include "kernel/kernel_state.h"
#include "kernel/module_map.h"
#include "kernel/mof_classes.h"
#include "process_table.h"
#include "reader/event.h"
#include "reader/trace_clock.h"

namespace dtrace::etw::plugin::kernel {

class KernelDispatch {
  public:
    KernelDispatch(dtrace_host *host, const dtrace_host_ops *ops, const KernelProbes &probes, const TraceClock &clock,
                   EventMemory &event_memory, ProcessTable &processes, ModuleMap &modules);

    // Call before firing anything for an event: curpsinfo and curlwpsinfo
    // then describe the event's pid and tid.
    void begin_event(const Event &event) {
        memory_.begin_firing(event.pid != kUnknownId ? event.pid : state_.pid_of(event.tid), event.tid, event.cpu);
    }
    // The memory reader every probe of the plugin hands the host.
    dtrace_memory_read_fn reader() const { return &KernelMemory::read; }
    void *reader_state() { return &memory_; }
    // The process of a thread, for records that name only the thread.
    uint32_t pid_of(uint32_t tid) const { return state_.pid_of(tid); }
    // The trace's PMC sources and the counters attached to its events.
    const PmcSources &pmc() const { return state_.pmc(); }
    // See KernelState::set_look_ahead and set_position.
    void look_ahead_with(const LookAhead &ahead) { state_.set_look_ahead(ahead); }
    void set_position(uint64_t position) { state_.set_position(position); }

    // Updates the state from the event, then fires the enabled kernel probes
    // it matches. base is the event's context as the other probes got it.
    // Asked of every event: the events that need no decoding (those of no
    // kernel class, context switches and the events no probe wants that
    // teach nothing) are dealt with inline.
    void dispatch(const Event &event, const dtrace_event_ctx &base) {
        const int klass = kernel_class_of(event);
        if (klass < 0 || klass >= static_cast<int>(kClassSlots)) {
            return;
        }
        const auto k = static_cast<KernelClass>(klass);
        if (k == KernelClass::Thread && event.opcode == kContextSwitchOpcode) {
            state_.note_context_switch(event);
        }
        if (probes_.any_enabled(klass) || teaches(k, event.opcode)) {
            decode_and_fire(event, klass, base);
        }
    }

  private:
    // Whether an event of the class and opcode tells the plugin something it
    // keeps from its decoded fields (kernel_state.h, process_table.h,
    // module_map.h); context switches teach without decoding. Others are
    // decoded only for a probe that wants them: most kernel events
    // (ReadyThread, samples, system calls ...) cost one table lookup.
    static bool teaches(KernelClass klass, uint8_t opcode) {
        constexpr uint8_t kStart = 1, kDcEnd = 4, kKcbCreate = 22, kKcbRundownEnd = 25;
        switch (klass) {
        case KernelClass::Process:
        case KernelClass::Thread:
            return opcode >= kStart && opcode <= kDcEnd;
        case KernelClass::Registry:
            return opcode >= kKcbCreate && opcode <= kKcbRundownEnd;
        case KernelClass::FileIo:
        case KernelClass::Image:
            return true;
        case KernelClass::PerfInfo: // PMC counter configuration and sampling sources (pmc_sources.h)
            return opcode == kPmcCounterConfigOpcode ||
                   (opcode >= kSetIntervalOpcode && opcode <= kCollectionEndOpcode);
        default:
            return false;
        }
    }
    void decode_and_fire(const Event &event, int klass, const dtrace_event_ctx &base);
    void fire(uint16_t row, dtrace_probe_id id, const Event &event, const dtrace_event_ctx &base);

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    const KernelProbes &probes_;
    const TraceClock &clock_;
    ProcessTable &processes_;
    ModuleMap &modules_;
    KernelState state_;
    KernelMemory memory_;
    MofRecord record_;
    // Each table row's pid_field and tid_field, looked up once.
    struct FiringFields {
        MofFieldId pid;
        MofFieldId tid;
    };
    std::vector<FiringFields> firing_fields_;
};

} // namespace dtrace::etw::plugin::kernel
