/*
 * fbt_trampoline.bpf.c: the fbt provider's fentry (fbt_fentry) and fexit
 * (fbt_fexit) programs, cheaper than kprobes where the kernel allows them
 * (BPF trampolines: no breakpoint, no pt_regs). They are typed by the
 * function they attach to, so the plugin loads this object once per
 * function (its maps shared with the kprobe object's: one ring), after
 * setting the attach target; the attach cookie is the probe's slot.
 *
 * Entry: arg0..arg5 are the function's arguments (bpf_get_func_arg: 0
 * beyond those it has). Return: arg0 is the return offset (the plugin's,
 * from the function's code; 0: unknown), arg1 the return value.
 */
#include "fbt_emit.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("fentry/vfs_read") /* the target is set before loading */
int fbt_fentry(void *ctx) {
    __u32 slot = bpf_get_attach_cookie(ctx);
    const struct live_probe_config *cfg = armed(slot);
    if (!cfg)
        return 0;
    __u64 args[LIVE_MAX_ARGS] = {};
#pragma unroll
    for (int i = 0; i < LIVE_MAX_ARGS; i++)
        bpf_get_func_arg(ctx, i, &args[i]);
    if (!live_filter_passes(&cfg->filter, args))
        return 0;
    return emit(ctx, slot, args);
}

SEC("fexit/vfs_read")
int fbt_fexit(void *ctx) {
    __u32 slot = bpf_get_attach_cookie(ctx);
    const struct live_probe_config *cfg = armed(slot);
    if (!cfg)
        return 0;
    __u64 args[LIVE_MAX_ARGS] = {return_offset_of(slot)};
    bpf_get_func_ret(ctx, &args[1]);
    if (!live_filter_passes(&cfg->filter, args))
        return 0;
    return emit(ctx, slot, args);
}
