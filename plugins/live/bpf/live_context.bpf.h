/*
 * live_context.bpf.h: BPF-side helpers every live plugin's program shares:
 * the firing's process context (ids, comm, parent, on-CPU time, task),
 * the in-kernel pre-filter over it, the ring buffer with its drop counter
 * and watermark, and the maps of probe configurations. Include it once
 * from a program's .bpf.c (it defines maps).
 *
 * Kernel structures are read with CO-RE relocations against the running
 * kernel's BTF, so only the members used are declared here.
 */
#ifndef DTRACE_LIVE_CONTEXT_BPF_H
#define DTRACE_LIVE_CONTEXT_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "live_record.h"

struct sched_entity {
    __u64 sum_exec_runtime;
    __u64 nr_migrations;
} __attribute__((preserve_access_index));

struct task_struct {
    struct task_struct *real_parent;
    int tgid;
    struct sched_entity se;
    unsigned long nvcsw;
    unsigned long nivcsw;
    unsigned long min_flt;
    unsigned long maj_flt;
} __attribute__((preserve_access_index));

/* Sized by user space before loading (the ring size option). */
struct {
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 1 << 22);
} live_events SEC(".maps");

/* Records the ring had no room for, per CPU. */
struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, __u64);
} live_drops SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, LIVE_MAX_PROBES);
    __type(key, __u32);
    __type(value, struct live_probe_config);
} live_probes SEC(".maps");

/* Programs dtrace generated from a probe's clauses (core/fastpath, loaded by
 * fastpath_loader.h), by probe slot: a slot with one runs it by a tail call
 * instead of writing a record (live_run_fastpath). */
struct {
    __uint(type, BPF_MAP_TYPE_PROG_ARRAY);
    __uint(max_entries, LIVE_MAX_PROBES);
    __type(key, __u32);
    __type(value, __u32);
} live_fastpath SEC(".maps");

/* Runs slot's generated program, which never returns here; returns when the
 * slot has none (its events go to user space). */
static __always_inline void live_run_fastpath(void *ctx, __u32 slot) {
    bpf_tail_call(ctx, &live_fastpath, slot);
}

const volatile struct live_settings live_settings = {};

/* Fills the record's process context; the arguments and captures are the
 * caller's. */
/* The task is read through its BTF-typed pointer: plain loads the verifier
 * checks, far cheaper than a bpf_probe_read_kernel() per field. */
static __always_inline void live_fill_context(struct live_record *r, __u32 slot) {
    __u64 pid_tgid = bpf_get_current_pid_tgid();
    __u64 uid_gid = bpf_get_current_uid_gid();
    struct task_struct *task = bpf_get_current_task_btf();
    r->pid = pid_tgid >> 32;
    r->tid = (__u32)pid_tgid;
    r->uid = (__u32)uid_gid;
    r->gid = uid_gid >> 32;
    r->ppid = task->real_parent->tgid;
    r->vtimestamp = task->se.sum_exec_runtime;
    r->task = (__u64)task;
    r->minor_faults = task->min_flt;
    r->major_faults = task->maj_flt;
    r->voluntary_switches = task->nvcsw;
    r->involuntary_switches = task->nivcsw;
    r->migrations = task->se.nr_migrations;
    r->cpu = bpf_get_smp_processor_id();
    r->slot = slot;
    bpf_get_current_comm(r->comm, sizeof r->comm);
}

static __always_inline int live_compare(__s64 left, __u8 op, __s64 right) {
    switch (op) {
    case LIVE_OP_EQ:
        return left == right;
    case LIVE_OP_NE:
        return left != right;
    case LIVE_OP_LT:
        return left < right;
    case LIVE_OP_LE:
        return left <= right;
    case LIVE_OP_GT:
        return left > right;
    case LIVE_OP_GE:
        return left >= right;
    }
    return 1;
}

/* Both names zero-padded to LIVE_COMM_LEN: two 8-byte words each. */
static __always_inline int live_same_comm(const char *a, const char *b) {
    return *(const __u64 *)a == *(const __u64 *)b && *(const __u64 *)(a + 8) == *(const __u64 *)(b + 8);
}

static __always_inline int live_term_holds(const struct live_filter_term *t, __u64 pid_tgid, __u64 uid_gid,
                                           const char *comm, const __u64 *args) {
    switch (t->field) {
    case LIVE_FIELD_PID:
        return live_compare((__s64)(pid_tgid >> 32), t->op, t->value);
    case LIVE_FIELD_TID:
        return live_compare((__s64)(__u32)pid_tgid, t->op, t->value);
    case LIVE_FIELD_UID:
        return live_compare((__s64)(__u32)uid_gid, t->op, t->value);
    case LIVE_FIELD_GID:
        return live_compare((__s64)(uid_gid >> 32), t->op, t->value);
    case LIVE_FIELD_EXECNAME: {
        int same = live_same_comm(comm, t->string);
        return t->op == LIVE_OP_NE ? !same : same;
    }
    case LIVE_FIELD_ARG:
        if (t->arg >= LIVE_MAX_ARGS)
            return 1;
        return live_compare((__s64)args[t->arg], t->op, t->value);
    }
    return 1; /* a term the program does not know never rejects */
}

/* Whether the event passes the probe's pre-filter. */
static __always_inline int live_filter_passes(const struct live_filter *f, const __u64 *args) {
    if (f->nclauses == 0)
        return 1;
    __u64 pid_tgid = bpf_get_current_pid_tgid();
    __u64 uid_gid = bpf_get_current_uid_gid();
    char comm[LIVE_COMM_LEN] = {};
    bpf_get_current_comm(comm, sizeof comm);
#pragma unroll
    for (int c = 0; c < LIVE_MAX_CLAUSES; c++) {
        if (c >= f->nclauses)
            break;
        const struct live_filter_conjunction *conj = &f->clauses[c];
        int holds = 1;
#pragma unroll
        for (int i = 0; i < LIVE_MAX_TERMS; i++) {
            if (i < conj->nterms && holds && !live_term_holds(&conj->terms[i], pid_tgid, uid_gid, comm, args))
                holds = 0;
        }
        if (holds)
            return 1;
    }
    return 0;
}

static __always_inline void live_count_drop(void) {
    __u32 zero = 0;
    __u64 *drops = bpf_map_lookup_elem(&live_drops, &zero);
    if (drops)
        *drops += 1;
}

/* Events per CPU, to pace the watermark check. */
struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, __u64);
} live_pace SEC(".maps");

#define LIVE_WATERMARK_EVERY 32 /* events between two looks at the ring's fill */

/* Never a wakeup per event: the consumer polls, and is woken only once the
 * ring holds the watermark's worth of records. Reading the fill touches the
 * consumer's cache line, so each CPU looks only every LIVE_WATERMARK_EVERY
 * events (the watermark leaves room for far more). */
static __always_inline __u64 live_submit_flags(void) {
    __u32 zero = 0;
    __u64 *pace = bpf_map_lookup_elem(&live_pace, &zero);
    if (pace && (++*pace % LIVE_WATERMARK_EVERY) != 0)
        return BPF_RB_NO_WAKEUP;
    __u64 waiting = bpf_ringbuf_query(&live_events, BPF_RB_AVAIL_DATA);
    return waiting >= live_settings.wakeup_watermark ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

#endif /* DTRACE_LIVE_CONTEXT_BPF_H */
