/*
 * kernel_fetch.bpf.h: reads, at the event, the kernel memory a probe's
 * clauses will load (their fetch plan, which the plugin writes into
 * fbt_plans from dtrace's probe_usage), so that dtrace answers the loads
 * from what was there when the function was called, not from what is there
 * when the clause runs: the steps of live_fetch.h, run by live_fetch.bpf.h
 * as kernel reads (user reads at user addresses: copyin(), copyinstr()).
 * Included by fbt_emit.bpf.h.
 */
#ifndef DTRACE_FBT_KERNEL_FETCH_BPF_H
#define DTRACE_FBT_KERNEL_FETCH_BPF_H

#include "fbt_record.h"
#include "live_fetch.bpf.h"

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

/* Runs slot's plan into r (the live part and its args filled): r->nfetched
 * steps, r->fetch_bytes of data. */
static __always_inline void fetch_kernel_memory(struct fbt_record *r, __u32 slot) {
    r->nfetched = 0;
    r->fetch_bytes = 0;
    const struct fbt_fetch_plan *plan = plan_of(slot);
    if (!plan)
        return;
    const struct live_fetch_where where = {FBT_MAX_FETCHES, FBT_FETCH_MAX_LENGTH, FBT_FETCH_DATA, 1};
    r->fetch_bytes =
        live_run_fetch_steps(where, plan->steps, plan->nsteps, r->live.args, r->fetched, r->data, &r->nfetched);
}

#endif /* DTRACE_FBT_KERNEL_FETCH_BPF_H */
