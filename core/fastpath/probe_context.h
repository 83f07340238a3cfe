// probe_context.h: probes whose context is not the syscall plugin's 8-byte
// words for the current thread (dtrace_fastpath_probe's appended fields):
// tracepoint fields of their own size and sign as arguments, arguments the
// kernel cannot read, the thread builtins of a task the context points to
// (sched:::on-cpu's incoming thread), and raw tracepoints. What ProbeShape
// keeps of them, and the code that reads them.
#pragma once

#include "fastpath/bpf_emitter.h"

#include <array>
#include <compare>
#include <cstdint>

#include <dtrace/provider.h>

namespace dtrace::fastpath {

struct ProbeContext {
    uint32_t flags = 0; // DTRACE_FASTPATH_ARG_FIELDS, _THREAD_TASK, _RAW_TRACEPOINT
    // DTRACE_FASTPATH_ARG_FIELDS: each argument's place, size (0: not in
    // the kernel) and, by bit, sign.
    std::array<uint16_t, DTRACE_FASTPATH_MAX_ARG_FIELDS> field_offset{};
    std::array<uint8_t, DTRACE_FASTPATH_MAX_ARG_FIELDS> field_size{};
    uint32_t field_signed = 0;
    // DTRACE_FASTPATH_THREAD_TASK: the context's word holding the task, and
    // what is read of it (0: unknown).
    uint32_t thread_task_offset = 0;
    uint32_t task_pid = 0, task_comm = 0, task_cred = 0, cred_uid = 0, cred_gid = 0;

    bool arg_fields() const { return flags & DTRACE_FASTPATH_ARG_FIELDS; }
    bool thread_task() const { return flags & DTRACE_FASTPATH_THREAD_TASK; }

    friend auto operator<=>(const ProbeContext &, const ProbeContext &) = default;
};

// The appended fields of a layout the plugin filled.
ProbeContext probe_context_of(const dtrace_fastpath_probe &layout);

// R1 = argument `index` of a DTRACE_FASTPATH_ARG_FIELDS probe with `nargs`
// arguments (the context in R6): its field, or 0 past the probe's
// arguments. Throws a Refusal for an argument the kernel cannot read.
void emit_field_arg(BpfEmitter &out, const ProbeContext &context, uint32_t nargs, uint32_t index);

// R0 = the struct task_struct * the thread builtins describe: the current
// task, or the context's word (DTRACE_FASTPATH_THREAD_TASK).
void emit_thread_task(BpfEmitter &out, const ProbeContext &context);

// For DTRACE_FASTPATH_THREAD_TASK: the prologue's thread builtins read from
// the context's task into their frame slots (kComm, kPidTgid, kUidGid), as
// the helpers fill them for the current task. Throws a Refusal when the
// plugin did not say where they are.
void emit_task_comm(BpfEmitter &out, const ProbeContext &context);
void emit_task_pid_tgid(BpfEmitter &out, const ProbeContext &context, uint32_t task_tgid);
void emit_task_uid_gid(BpfEmitter &out, const ProbeContext &context);

} // namespace dtrace::fastpath
