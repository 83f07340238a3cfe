/*
 * syscall_events.bpf.c: the syscall provider's BPF programs for one system
 * call each, attached to tracefs's syscalls:sys_enter_<name>
 * (syscall_entry) and syscalls:sys_exit_<name> (syscall_return)
 * tracepoints, and the way back of an event dtrace's program declined
 * (syscall_declined_event). The attach cookie is the probe's slot in
 * live_probes.
 *
 * A syscalls tracepoint's record is: 8 bytes of common fields, the system
 * call's number (int, at 8), then at 16 either its arguments (8 bytes each;
 * only as many as the call has, so they are read with a probe read: the
 * context's reads are checked against the smallest record the program may
 * be attached to) or, on exit, the long return value.
 */
#include "syscall_emit.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define SYSCALL_NR_OFFSET 8
#define SYSCALL_ARGS_OFFSET 16

/* An entry's arguments (zero past the call's): a probe read, as the record
 * holds only the call's own. */
static __always_inline int entry_of(void *ctx, __u32 slot, __u32 nargs) {
    __u64 args[LIVE_MAX_ARGS] = {};
    if (nargs > 0 && bpf_probe_read_kernel(args, sizeof args, (const char *)ctx + SYSCALL_ARGS_OFFSET) != 0)
        return 0;
    return handle_entry(ctx, slot, *(const __s32 *)((const char *)ctx + SYSCALL_NR_OFFSET), args);
}

SEC("tracepoint")
int syscall_entry(void *ctx) {
    __u32 slot = bpf_get_attach_cookie(ctx);
    live_run_fastpath(ctx, slot);
    const struct live_probe_config *cfg = bpf_map_lookup_elem(&live_probes, &slot);
    if (!cfg || !cfg->armed)
        return 0;
    /* A call without arguments (getppid) needs no probe read at all. */
    return entry_of(ctx, slot, cfg->nargs);
}

SEC("tracepoint")
int syscall_return(void *ctx) {
    /* Every exit record has its number and return value: read in place. */
    const char *record = ctx;
    live_run_fastpath(ctx, bpf_get_attach_cookie(ctx));
    return handle_return(ctx, bpf_get_attach_cookie(ctx), *(const __s32 *)(record + SYSCALL_NR_OFFSET),
                         *(const __s64 *)(record + SYSCALL_ARGS_OFFSET));
}

/* The way back of an event dtrace's program declined (a walk of the user
 * stack its rows cannot finish, another process's event: docs/fastpath.md,
 * "Stacks"), tail-called with the context of either tracepoint: the
 * programs above or raw_syscalls' without their tail call. A per-call
 * tracepoint's cookie is the probe slot (the plugin's link's or dtrace's
 * program's own); raw_syscalls' says the direction, and the slot is the
 * call number's. */
SEC("tracepoint")
int syscall_declined_event(void *ctx) {
    const char *record = ctx;
    const __u64 cookie = bpf_get_attach_cookie(ctx);
    const __s32 nr = *(const __s32 *)(record + SYSCALL_NR_OFFSET);
    __u32 slot = (__u32)cookie;
    if ((cookie & SYSCALL_RAW_COOKIE) && !slot_of(nr, (__u32)cookie & 1, &slot))
        return 0;
    const struct live_probe_config *cfg = bpf_map_lookup_elem(&live_probes, &slot);
    if (!cfg || !cfg->armed)
        return 0;
    if (cfg->kind == LIVE_KIND_SYSCALL_RETURN)
        return handle_return(ctx, slot, nr, *(const __s64 *)(record + SYSCALL_ARGS_OFFSET));
    return entry_of(ctx, slot, cfg->nargs);
}
