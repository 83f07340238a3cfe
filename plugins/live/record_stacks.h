// record_stacks.h: the stacks a tracepoint program appended to a live
// record (bpf/live_stack_tail.h), as the event context's program counters.
//
// The syscall and sdt programs append a stack tail when a clause of the
// probe reads stack() or ustack() (stacks_for_usage() says which). The
// kernel frames are taken as the program wrote them, less the frames of
// the tracing machinery that called the program (the first frame is the
// function that hit the tracepoint, as DTrace shows it); the user stack is
// unwound from the registers and stack bytes by the live stack helper.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include <dtrace/provider.h>

#include "bpf/live_stack_tail.h"
#include "stack_symbols.h"

namespace dtrace::live {

// The LIVE_STACK_* a probe's program must append for the clauses that
// enable it (the host's probe_usage of the probe; 0 when it cannot say).
uint32_t stacks_for_usage(dtrace_host *host, const dtrace_host_ops *ops, dtrace_probe_id id);

// Readies `symbols` for the stacks a probe's records carry (`stacks`, its
// LIVE_STACK_*): the kernel's symbols loaded now, and with user stacks the
// mappings followed from the kernel's records (a process may exit before
// its records are drained), the session's targets' read now. False after
// report_error() when they cannot be.
bool prepare_stacks(dtrace_host *host, const dtrace_host_ops *ops, uint32_t stacks, stacks::StackSymbols &symbols);

class RecordStacks {
  public:
    static constexpr size_t kMaxUserFrames = 128;

    // Points ctx's kernel_stack and user_stack at the stacks of `tail` (a
    // record's bytes after its captures; empty: the record has none) of
    // process `pid`, made at `time` (bpf_ktime_get_ns()). They stay valid
    // until the next call.
    void add_to(std::span<const uint8_t> tail, int64_t pid, uint64_t time, stacks::StackSymbols &symbols,
                dtrace_event_ctx &ctx);

  private:
    std::array<uint64_t, LIVE_KERNEL_FRAMES> kernel_{};
    std::array<uint64_t, kMaxUserFrames> user_{};
};

} // namespace dtrace::live
