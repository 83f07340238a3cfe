/*
 * fbt_emit.bpf.h: what the fbt provider's programs (kprobes in
 * fbt_events.bpf.c, fentry/fexit in fbt_trampoline.bpf.c) share: the probe
 * slot's configuration and the record, with the kernel stack and the
 * kernel memory the clauses load (kernel_fetch.bpf.h), they write to the
 * ring. Include it once from a program's .bpf.c (it defines maps).
 */
#ifndef DTRACE_FBT_EMIT_BPF_H
#define DTRACE_FBT_EMIT_BPF_H

#include "live_context.bpf.h"

#include "fbt_record.h"
#include "kernel_fetch.bpf.h"

/* Records are built here and copied to the ring at their real size: the
 * stack is usually a few frames of the FBT_MAX_FRAMES it has room for, and
 * most probes fetch nothing. */
struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct fbt_record);
} fbt_scratch SEC(".maps");

static __always_inline int emit(void *ctx, __u32 slot, const __u64 *args) {
    __u32 zero = 0;
    struct fbt_record *r = bpf_map_lookup_elem(&fbt_scratch, &zero);
    if (!r)
        return 0;
    live_fill_context(&r->live, slot);
#pragma unroll
    for (int i = 0; i < LIVE_MAX_ARGS; i++)
        r->live.args[i] = args[i];
    r->live.size = sizeof r->live;
    r->live.error = 0;
    r->live.syscall_nr = -1;
#pragma unroll
    for (int i = 0; i < LIVE_MAX_CAPTURES; i++) {
        r->live.capture_length[i] = 0;
        r->live.capture_arg[i] = 0;
        r->live.capture_mode[i] = LIVE_CAPTURE_NONE;
    }
    long stack_bytes = bpf_get_stack(ctx, r->stack, sizeof r->stack, 0);
    if (stack_bytes < 0 || stack_bytes > (long)sizeof r->stack)
        stack_bytes = 0;
    r->stack_bytes = stack_bytes;
    fetch_kernel_memory(r, slot);
    r->live.timestamp = bpf_ktime_get_ns();
    __u64 size = r->nfetched > 0 ? offsetof(struct fbt_record, data) + (__u64)r->fetch_bytes
                                 : offsetof(struct fbt_record, stack) + (__u64)stack_bytes;
    if (size > sizeof *r)
        return 0;
    if (bpf_ringbuf_output(&live_events, r, size, live_submit_flags()) != 0)
        live_count_drop();
    return 0;
}

static __always_inline const struct live_probe_config *armed(__u32 slot) {
    const struct live_probe_config *cfg = bpf_map_lookup_elem(&live_probes, &slot);
    return cfg && cfg->armed ? cfg : 0;
}

#endif /* DTRACE_FBT_EMIT_BPF_H */
