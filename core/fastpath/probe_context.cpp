// probe_context.cpp: reading tracepoint fields and another task's builtins
// in generated programs (see probe_context.h).
#include "fastpath/probe_context.h"

#include "fastpath/kernel_frame.h"

#include <string>

namespace dtrace::fastpath {

using namespace bpf;

namespace {

uint8_t load_size(uint8_t bytes) {
    switch (bytes) {
    case 1:
        return kB;
    case 2:
        return kH;
    case 4:
        return kW;
    default:
        return kDw;
    }
}

// R3 = the context's task (clobbers nothing else).
void load_context_task(BpfEmitter &out, const ProbeContext &context) {
    out.load(kDw, R3, R6, static_cast<int16_t>(context.thread_task_offset));
}

// `bytes` of memory at R3 + offset into the frame at r10 + at, read by
// `helper` (bpf_probe_read_kernel or _user: zeroed when the read fails).
void read_memory(BpfEmitter &out, Helper helper, uint32_t offset, int16_t at, int32_t bytes) {
    out.alu_imm(kAdd, R3, static_cast<int32_t>(offset));
    out.mov(R1, R10);
    out.alu_imm(kAdd, R1, at);
    out.mov_imm(R2, bytes);
    out.call(helper);
}

void read_kernel(BpfEmitter &out, uint32_t offset, int16_t at, int32_t bytes) {
    read_memory(out, Helper::ProbeReadKernel, offset, at, bytes);
}

void require(uint32_t offset, const char *builtin) {
    if (offset == 0)
        throw Refusal(std::string(builtin) +
                      " of this probe's thread is not available in the kernel path (the plugin does not know the "
                      "kernel's task_struct)");
}

} // namespace

ProbeContext probe_context_of(const dtrace_fastpath_probe &layout) {
    ProbeContext context;
    context.flags =
        layout.flags & (DTRACE_FASTPATH_ARG_FIELDS | DTRACE_FASTPATH_THREAD_TASK | DTRACE_FASTPATH_RAW_TRACEPOINT);
    for (size_t i = 0; i < context.args.size(); i++) {
        ArgPlace &place = context.args[i];
        if (context.arg_fields()) {
            const uint8_t size = layout.arg_field_size[i];
            if (size == DTRACE_FASTPATH_ARG_FIELD_COOKIE_HIGH)
                place.kind = ArgPlace::Kind::CookieHigh;
            else if (size == DTRACE_FASTPATH_ARG_FIELD_USER_WORD)
                place = ArgPlace{ArgPlace::Kind::UserWord, layout.arg_field_offset[i], 8, false,
                                 layout.arg_field_user_displacement[i]};
            else if (size == 1 || size == 2 || size == 4 || size == 8)
                place = arg_field(layout.arg_field_offset[i], size, (layout.arg_field_signed >> i & 1) != 0);
        } else if ((layout.flags & DTRACE_FASTPATH_ARG_TABLE) && i < layout.nargs) {
            const uint32_t where = layout.arg_offsets[i];
            if (where == DTRACE_FASTPATH_ARG_COOKIE_HIGH)
                place.kind = ArgPlace::Kind::CookieHigh;
            else if (where <= UINT16_MAX)
                place = arg_field(static_cast<uint16_t>(where), 8);
        }
    }
    if (layout.flags & DTRACE_FASTPATH_ARG_TABLE)
        context.flags |= DTRACE_FASTPATH_ARG_FIELDS;
    context.thread_task_offset = layout.thread_task_offset;
    context.task_pid = layout.task_pid;
    context.task_comm = layout.task_comm;
    context.task_cred = layout.task_cred;
    context.cred_uid = layout.cred_uid;
    context.cred_gid = layout.cred_gid;
    return context;
}

void emit_table_arg(BpfEmitter &out, const ProbeContext &context, uint32_t nargs, uint32_t index,
                    const std::string &name) {
    if (index >= nargs) {
        out.mov_imm(R1, 0);
        return;
    }
    const ArgPlace place = index < context.args.size() ? context.args[index] : ArgPlace{};
    switch (place.kind) {
    case ArgPlace::Kind::Unavailable:
        throw Refusal(name + " of this probe is not available in the kernel path (the plugin reads it in user space: "
                             "a string, user memory, a value it builds)");
    case ArgPlace::Kind::CookieHigh:
        out.mov(R1, R6);
        out.call(Helper::GetAttachCookie);
        out.alu_imm(kRsh, R0, 32);
        out.mov(R1, R0);
        return;
    case ArgPlace::Kind::UserWord:
        // 0 when the read fails, as the plugins' own copies of stack arguments give.
        out.load(kDw, R3, R6, static_cast<int16_t>(place.offset));
        read_memory(out, Helper::ProbeReadUser, place.displacement, frame::kTaskWord, 8);
        out.load(kDw, R1, R10, frame::kTaskWord);
        return;
    case ArgPlace::Kind::Field:
        break;
    }
    out.load(load_size(place.size), R1, R6, static_cast<int16_t>(place.offset));
    if (place.size < 8 && place.is_signed) {
        out.alu_imm(kLsh, R1, 64 - 8 * place.size);
        out.alu_imm(kArsh, R1, 64 - 8 * place.size);
    }
}

void emit_thread_task(BpfEmitter &out, const ProbeContext &context) {
    if (!context.thread_task()) {
        out.call(Helper::GetCurrentTask);
        return;
    }
    load_context_task(out, context);
    out.mov(R0, R3);
}

void emit_task_comm(BpfEmitter &out, const ProbeContext &context) {
    require(context.task_comm, "execname");
    load_context_task(out, context);
    read_kernel(out, context.task_comm, frame::kComm, kStringKeyBytes);
}

// kPidTgid as bpf_get_current_pid_tgid() makes it: tgid << 32 | pid (the
// thread id), the two 4-byte halves read in place (little-endian).
void emit_task_pid_tgid(BpfEmitter &out, const ProbeContext &context, uint32_t task_tgid) {
    require(context.task_pid, "tid");
    require(task_tgid, "pid");
    load_context_task(out, context);
    read_kernel(out, context.task_pid, frame::kPidTgid, 4);
    load_context_task(out, context);
    read_kernel(out, task_tgid, frame::kPidTgid + 4, 4);
}

// kUidGid as bpf_get_current_uid_gid() makes it: gid << 32 | uid, from the task's cred.
void emit_task_uid_gid(BpfEmitter &out, const ProbeContext &context) {
    require(context.task_cred, "uid");
    load_context_task(out, context);
    read_kernel(out, context.task_cred, frame::kTaskWord, 8);
    out.load(kDw, R3, R10, frame::kTaskWord);
    read_kernel(out, context.cred_uid, frame::kUidGid, 4);
    out.load(kDw, R3, R10, frame::kTaskWord);
    read_kernel(out, context.cred_gid, frame::kUidGid + 4, 4);
}

} // namespace dtrace::fastpath
