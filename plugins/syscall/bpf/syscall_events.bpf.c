/*
 * syscall_events.bpf.c: the syscall provider's BPF programs for one system
 * call each, attached to tracefs's syscalls:sys_enter_<name>
 * (syscall_entry) and syscalls:sys_exit_<name> (syscall_return)
 * tracepoints. The attach cookie is the probe's slot in live_probes.
 *
 * A syscalls tracepoint's record is: 8 bytes of common fields, the system
 * call's number (int, at 8), then at 16 either its arguments (8 bytes each;
 * only as many as the call has, so they are read with a probe read, not
 * from the context, whose size the verifier checks against each
 * tracepoint's) or, on exit, the long return value.
 */
#include "syscall_emit.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define SYSCALL_NR_OFFSET 8

SEC("tracepoint")
int syscall_entry(void *ctx) {
    struct {
        __s32 nr;
        __u32 pad;
        __u64 args[LIVE_MAX_ARGS];
    } call = {};
    if (bpf_probe_read_kernel(&call, sizeof call, (const char *)ctx + SYSCALL_NR_OFFSET) != 0)
        return 0;
    return handle_entry(bpf_get_attach_cookie(ctx), call.nr, call.args);
}

SEC("tracepoint")
int syscall_return(void *ctx) {
    struct {
        __s32 nr;
        __u32 pad;
        __s64 ret;
    } exit = {};
    if (bpf_probe_read_kernel(&exit, sizeof exit, (const char *)ctx + SYSCALL_NR_OFFSET) != 0)
        return 0;
    return handle_return(bpf_get_attach_cookie(ctx), exit.nr, exit.ret);
}
