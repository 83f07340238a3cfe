/*
 * fbt_emit.bpf.h: what the fbt provider's programs (kprobes in
 * fbt_events.bpf.c, fentry/fexit in fbt_trampoline.bpf.c) share: the probe
 * slot's configuration and the record, with the kernel stack, they write
 * to the ring. Include it once from a program's .bpf.c (it defines maps).
 */
#ifndef DTRACE_FBT_EMIT_BPF_H
#define DTRACE_FBT_EMIT_BPF_H

#include "live_context.bpf.h"

#include "fbt_record.h"

static __always_inline int emit(void *ctx, __u32 slot, const __u64 *args) {
    struct fbt_record *r = bpf_ringbuf_reserve(&live_events, sizeof *r, 0);
    if (!r) {
        live_count_drop();
        return 0;
    }
    r->live.timestamp = bpf_ktime_get_ns();
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
    r->stack_bytes = bpf_get_stack(ctx, r->stack, sizeof r->stack, 0);
    bpf_ringbuf_submit(r, live_submit_flags());
    return 0;
}

static __always_inline const struct live_probe_config *armed(__u32 slot) {
    const struct live_probe_config *cfg = bpf_map_lookup_elem(&live_probes, &slot);
    return cfg && cfg->armed ? cfg : 0;
}

#endif /* DTRACE_FBT_EMIT_BPF_H */
