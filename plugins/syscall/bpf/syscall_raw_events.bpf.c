/*
 * syscall_raw_events.bpf.c: the syscall provider's BPF programs for many
 * system calls at once, attached to raw_syscalls:sys_enter and
 * raw_syscalls:sys_exit (one attachment each instead of one per call: a
 * wide enabling such as syscall:::entry attaches and, above all, detaches
 * in milliseconds rather than the seconds hundreds of tracepoints take).
 * live_syscall_slots maps a call's number and direction to its probe
 * slot (syscall_emit.bpf.h); calls without one return at once. The maps
 * of live_context.bpf.h are shared with the per-call object (the loader
 * reuses their fds). The attach cookie is SYSCALL_RAW_COOKIE and the
 * direction (syscall_declined_event reads it).
 */
#include "syscall_emit.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* raw_syscalls:sys_enter's and sys_exit's records. */
struct raw_enter {
    __u64 common;
    __s64 id;
    __u64 args[LIVE_MAX_ARGS];
};
struct raw_exit {
    __u64 common;
    __s64 id;
    __s64 ret;
};

SEC("tracepoint")
int raw_syscall_entry(struct raw_enter *ctx) {
    __u32 slot;
    if (!slot_of(ctx->id, 0, &slot))
        return 0;
    live_run_fastpath(ctx, slot);
    __u64 args[LIVE_MAX_ARGS];
#pragma unroll
    for (int i = 0; i < LIVE_MAX_ARGS; i++)
        args[i] = ctx->args[i];
    return handle_entry(ctx, slot, (__s32)ctx->id, args);
}

SEC("tracepoint")
int raw_syscall_return(struct raw_exit *ctx) {
    __u32 slot;
    if (!slot_of(ctx->id, 1, &slot))
        return 0;
    live_run_fastpath(ctx, slot);
    return handle_return(ctx, slot, (__s32)ctx->id, ctx->ret);
}
