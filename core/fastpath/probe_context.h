// probe_context.h: probes whose context is not the syscall plugin's 8-byte
// words for the current thread (dtrace_fastpath_probe's appended fields):
// arguments where a table says (tracepoint fields of their own size and
// sign, a uprobe's registers and stack, the attach cookie), arguments the kernel
// cannot read, the thread builtins of a task the context points to
// (sched:::on-cpu's incoming thread), and raw tracepoints. What ProbeShape
// keeps of them, and the code that reads them.
#pragma once

#include "fastpath/bpf_emitter.h"

#include <array>
#include <compare>
#include <cstdint>
#include <string>

#include <dtrace/provider.h>

namespace dtrace::fastpath {

// Where one argument lies in the context (dtrace_fastpath_probe's
// DTRACE_FASTPATH_ARG_FIELDS entry, or its older arg_offsets table's).
struct ArgPlace {
    enum class Kind : uint8_t {
        Unavailable, // the plugin reads it in user space (a string, user memory, a record it builds)
        Field,       // `size` bytes at `offset`, sign-extended when `is_signed`
        CookieHigh,  // the high 32 bits of the attach cookie (a pid return probe's offset)
        UserWord,    // the user memory word `displacement` bytes above the address at `offset` (a stack argument)
    } kind = Kind::Unavailable;
    uint16_t offset = 0;
    uint8_t size = 0; // 1, 2, 4 or 8
    bool is_signed = false;
    uint16_t displacement = 0;

    friend auto operator<=>(const ArgPlace &, const ArgPlace &) = default;
};

// A Field argument.
inline ArgPlace arg_field(uint16_t offset, uint8_t size, bool is_signed = false) {
    return ArgPlace{ArgPlace::Kind::Field, offset, size, is_signed};
}

struct ProbeContext {
    uint32_t flags = 0; // DTRACE_FASTPATH_ARG_FIELDS, _THREAD_TASK, _RAW_TRACEPOINT
    // DTRACE_FASTPATH_ARG_FIELDS: where each argument is (else: the
    // ProbeShape's words at arg_offset).
    std::array<ArgPlace, DTRACE_FASTPATH_MAX_ARG_FIELDS> args{};
    // DTRACE_FASTPATH_THREAD_TASK: the context's word holding the task, and
    // what is read of it (0: unknown).
    uint32_t thread_task_offset = 0;
    uint32_t task_pid = 0, task_comm = 0, task_cred = 0, cred_uid = 0, cred_gid = 0;

    bool arg_fields() const { return flags & DTRACE_FASTPATH_ARG_FIELDS; }
    bool thread_task() const { return flags & DTRACE_FASTPATH_THREAD_TASK; }
    bool raw_tracepoint() const { return flags & DTRACE_FASTPATH_RAW_TRACEPOINT; }

    friend auto operator<=>(const ProbeContext &, const ProbeContext &) = default;
};

// The appended fields of a layout the plugin filled. Its arguments, told
// field by field (DTRACE_FASTPATH_ARG_FIELDS) or by the older table
// (DTRACE_FASTPATH_ARG_TABLE: 8-byte words), are one table of ArgPlaces.
ProbeContext probe_context_of(const dtrace_fastpath_probe &layout);

// R1 = argument `index` of a DTRACE_FASTPATH_ARG_FIELDS probe with `nargs`
// arguments (the context in R6): where its place says, or 0 past the
// probe's arguments. Throws a Refusal naming it (`name`: "arg6",
// "args[2]") when the kernel cannot read it.
void emit_table_arg(BpfEmitter &out, const ProbeContext &context, uint32_t nargs, uint32_t index,
                    const std::string &name);

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
