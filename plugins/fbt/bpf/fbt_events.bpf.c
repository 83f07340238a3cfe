/*
 * fbt_events.bpf.c: the fbt provider's BPF programs, attached through the
 * kprobe PMU to a kernel function's entry (fbt_entry, a kprobe) or return
 * (fbt_return, a kretprobe). The attach cookie is the probe's slot in
 * live_probes. A probe whose clauses run in the kernel has dtrace's program
 * on its kprobe instead (fbt_fastpath.cpp).
 *
 * Entry: arg0..arg5 are the function's first six arguments (the x86-64
 * argument registers). Return: arg0 is the return offset (the plugin's,
 * from the function's code: a kretprobe does not know it), arg1 the return
 * value.
 * Every record carries the kernel stack at the probe (bpf_get_stack), whose
 * first frame is the probed function, as DTrace on Linux prints it.
 */
#include <linux/ptrace.h>

#include "fbt_emit.bpf.h"

#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

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
    __u64 args[LIVE_MAX_ARGS] = {return_offset_of(slot), PT_REGS_RC(ctx)};
    if (!live_filter_passes(&cfg->filter, args))
        return 0;
    return emit(ctx, slot, args);
}
