/*
 * fbt_events.bpf.c: the fbt provider's BPF programs, attached through the
 * kprobe PMU to a kernel function's entry (fbt_entry, a kprobe) or return
 * (fbt_return, a kretprobe). The attach cookie is the probe's slot in
 * live_probes.
 *
 * Entry: arg0..arg5 are the function's first six arguments (the x86-64
 * argument registers). Return: arg0 is the return offset, which a kretprobe
 * does not know (0, as DTrace gives when unknown), arg1 the return value.
 * Every record carries the kernel stack at the probe (bpf_get_stack), whose
 * first frame is the probed function, as DTrace on Linux prints it.
 */
#include <linux/ptrace.h>

#include "live_context.bpf.h"

#include <bpf/bpf_tracing.h>

#include "fbt_record.h"

char LICENSE[] SEC("license") = "GPL";

static __always_inline int emit(struct pt_regs *ctx, __u32 slot, const __u64 *args) {
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

SEC("kprobe")
int fbt_entry(struct pt_regs *ctx) {
    __u32 slot = bpf_get_attach_cookie(ctx);
    const struct live_probe_config *cfg = armed(slot);
    if (!cfg)
        return 0;
    __u64 args[LIVE_MAX_ARGS] = {PT_REGS_PARM1(ctx), PT_REGS_PARM2(ctx), PT_REGS_PARM3(ctx),
                                 PT_REGS_PARM4(ctx), PT_REGS_PARM5(ctx), ctx->r9 /* libbpf 1.1 has no PT_REGS_PARM6 */};
    if (!live_filter_passes(&cfg->filter, args))
        return 0;
    return emit(ctx, slot, args);
}

SEC("kretprobe")
int fbt_return(struct pt_regs *ctx) {
    __u32 slot = bpf_get_attach_cookie(ctx);
    const struct live_probe_config *cfg = armed(slot);
    if (!cfg)
        return 0;
    __u64 args[LIVE_MAX_ARGS] = {0, PT_REGS_RC(ctx)};
    if (!live_filter_passes(&cfg->filter, args))
        return 0;
    return emit(ctx, slot, args);
}
