/*
 * kernel_fetch.bpf.h: reads, at the event, the kernel memory a probe's
 * clauses will load (their fetch plan, which the plugin writes into
 * fbt_plans from dtrace's probe_usage), so that dtrace answers the loads
 * from what was there when the function was called, not from what is there
 * when the clause runs. Each step reads bytes (bpf_probe_read_kernel) or a
 * string (bpf_probe_read_kernel_str; bpf_probe_read_user_str for the
 * user strings copyinstr() takes of an argument) at a base plus an offset;
 * the base is an argument, the current task, 0, or the pointer an earlier
 * step read.
 * Included by fbt_emit.bpf.h.
 */
#ifndef DTRACE_FBT_KERNEL_FETCH_BPF_H
#define DTRACE_FBT_KERNEL_FETCH_BPF_H

#include "fbt_record.h"

#define FBT_EFAULT 14

struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, LIVE_MAX_PROBES);
    __type(key, __u32);
    __type(value, struct fbt_fetch_plan);
} fbt_plans SEC(".maps");

/* The slot's plan; null when there is none. */
static __always_inline const struct fbt_fetch_plan *plan_of(__u32 slot) {
    return bpf_map_lookup_elem(&fbt_plans, &slot);
}

/* arg0 of a return probe: the offset of the function's return instruction, 0 when not known. */
static __always_inline __u64 return_offset_of(__u32 slot) {
    const struct fbt_fetch_plan *plan = plan_of(slot);
    return plan ? plan->return_offset : 0;
}

/* The address step `i` reads; 0 when its base is unknown (an earlier read failed). */
static __always_inline __u64 fetch_address(const struct fbt_record *r, const struct fbt_fetch_step *step, __u32 i) {
    __u64 base = 0;
    __u32 k = step->index;
    switch (step->base) {
    case FBT_FETCH_ARG:
        if (k >= LIVE_MAX_ARGS)
            return 0;
        base = r->live.args[k];
        break;
    case FBT_FETCH_CURTHREAD:
        base = bpf_get_current_task();
        break;
    case FBT_FETCH_ABSOLUTE:
        break;
    case FBT_FETCH_POINTER: {
        if (k >= i || k >= FBT_MAX_FETCHES)
            return 0;
        const struct fbt_fetched *from = &r->fetched[k];
        if (from->length < 8)
            return 0;
        __u32 at = from->data_offset & (FBT_FETCH_DATA - 8);
        base = *(const __u64 *)&r->data[at];
        if (base == 0)
            return 0;
        break;
    }
    default:
        return 0;
    }
    return base + step->offset;
}

/* Runs slot's plan into r (the live part and its args filled): r->nfetched
 * steps, r->fetch_bytes of data. */
static __always_inline void fetch_kernel_memory(struct fbt_record *r, __u32 slot) {
    r->nfetched = 0;
    r->fetch_bytes = 0;
    const struct fbt_fetch_plan *plan = plan_of(slot);
    if (!plan)
        return;
    __u32 steps = plan->nsteps;
    __u32 used = 0;
    for (__u32 i = 0; i < FBT_MAX_FETCHES; i++) {
        /* Room for the longest read: every read starts below half the data. */
        if (i >= steps || used >= FBT_FETCH_DATA - FBT_FETCH_MAX_LENGTH)
            break;
        const struct fbt_fetch_step *step = &plan->steps[i];
        struct fbt_fetched *out = &r->fetched[i];
        /* The verifier must see this bound, which clang drops as redundant. */
        __u64 at = used;
        asm volatile("%0 &= %1" : "+r"(at) : "i"(FBT_FETCH_DATA - FBT_FETCH_MAX_LENGTH - 1));
        __u32 length = step->length;
        if (length > FBT_FETCH_MAX_LENGTH)
            length = FBT_FETCH_MAX_LENGTH;
        if (length == 0)
            length = 1;
        const __u64 address = fetch_address(r, step, i);
        long got = -FBT_EFAULT;
        if (address != 0) {
            if (step->flags & FBT_FETCH_USER)
                got = bpf_probe_read_user_str(&r->data[at], length, (const void *)address);
            else if (step->flags & FBT_FETCH_STRING)
                got = bpf_probe_read_kernel_str(&r->data[at], length, (const void *)address);
            else if (bpf_probe_read_kernel(&r->data[at], length, (const void *)address) == 0)
                got = length;
        }
        out->address = address;
        out->length = got;
        out->data_offset = (__u16)at;
        out->flags = step->flags;
        if (got > 0)
            used = (__u32)at + (((__u32)got + 7) & ~7u);
        r->nfetched = i + 1;
    }
    r->fetch_bytes = used;
}

#endif /* DTRACE_FBT_KERNEL_FETCH_BPF_H */
