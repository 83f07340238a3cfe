/*
 * sdt_events.bpf.c: the sdt plugin's BPF programs.
 *
 * sdt_tracepoint: one program for every kernel tracepoint the plugin
 * traces (sdt:<group>::<event> and the stable providers built on them),
 * attached with the probe slot as cookie. It copies the tracepoint's raw
 * record (the fixed fields and the __data_loc strings after them, up to the
 * slot's capture_limit bytes) behind a live_record as capture 0; user space
 * decodes the fields with the event's format file. args[0] is the address
 * the copy is served at (SDT_RAW_ADDRESS), so a __data_loc string's
 * argument is an address inside the copy and copyinstr() reads it.
 *
 * Before anything, it tail-calls the program dtrace generated for the
 * tracepoint's probe (live_fastpath at the slot), if there is one: the
 * probe's clauses then run in the kernel and no record is made.
 *
 * sdt_switch: sched_switch as a BTF tracepoint (the previous and next
 * tasks, typed), for sched:::off-cpu in the context of the thread leaving
 * and sched:::on-cpu in the context of the thread coming on: ids, comm and
 * on-CPU time of `next` are read from its task_struct. Its two slots are in
 * sdt_switch_slots (libbpf 1.1 gives BTF tracepoints no cookie).
 *
 * The ways back of an event dtrace's program declined (a walk of the user
 * stack its rows cannot finish, another process's event: docs/fastpath.md,
 * "Stacks"), tail-called with the context dtrace's program was given:
 * sdt_declined_event, sdt_tracepoint without its tail call;
 * sdt_declined_off_cpu, sched:::off-cpu's record from sched_switch as a raw
 * tracepoint (dtrace's program there is one), its slot in
 * sdt_off_cpu_way_back.
 */
#include "live_context.bpf.h"
#include "live_stacks.bpf.h"
#include "sdt_raw.h"

char LICENSE[] SEC("license") = "GPL";

struct sdt_scratch {
    struct live_record record;
    /* the record copy, the process arguments, the stacks (live_stack_tail.h) */
    char raw[LIVE_CAPTURE_MAX + SDT_PSARGS_MAX + LIVE_STACK_TAIL_MAX];
    char psargs[SDT_PSARGS_MAX];
};

struct mm_struct___sdt {
    unsigned long arg_start;
    unsigned long arg_end;
} __attribute__((preserve_access_index));

struct task_struct___sdt_mm {
    struct mm_struct___sdt *mm;
    int exit_code;
} __attribute__((preserve_access_index));

/* lockstat: when each thread began waiting for a lock, and the lock's kind. */
struct sdt_lock_wait {
    __u64 since;
    __u64 flags;
};
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 16384);
    __type(key, __u32);
    __type(value, struct sdt_lock_wait);
} sdt_lock_waits SEC(".maps");

/* SDT_CAPTURE_LOCK_BEGIN: keeps the thread's wait. SDT_CAPTURE_LOCK_END:
 * the wait ended, into `wait` (zero when no begin was kept). Returns 1 when
 * the event makes no record: always at a begin, at an end without its
 * begin, unless captures[0].length_arg says a probe on the tracepoint wants
 * every event (sdt:lock::contention_begin beside lockstat). */
static __always_inline int lock_wait(const struct live_probe_config *cfg, const void *ctx, struct sdt_lock_wait *wait) {
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    if (cfg->captures[0].mode == SDT_CAPTURE_LOCK_BEGIN) {
        struct sdt_lock_wait begin = {bpf_ktime_get_ns(), 0};
        __u32 flags = 0;
        bpf_probe_read_kernel(&flags, sizeof flags, (const char *)ctx + cfg->captures[0].arg);
        begin.flags = flags;
        bpf_map_update_elem(&sdt_lock_waits, &tid, &begin, BPF_ANY);
        return !cfg->captures[0].length_arg;
    }
    struct sdt_lock_wait *begin = bpf_map_lookup_elem(&sdt_lock_waits, &tid);
    if (!begin)
        return !cfg->captures[0].length_arg;
    wait->since = bpf_ktime_get_ns() - begin->since;
    wait->flags = begin->flags;
    bpf_map_delete_elem(&sdt_lock_waits, &tid);
    return 0;
}

/* The current process's argument strings (NUL-separated), as exec left
 * them: proc:::exec-success's psinfo is right even for a program gone
 * before dtrace reads /proc. Returns the bytes copied to dst. */
static __always_inline __u32 copy_psargs(char *dst) {
    struct task_struct___sdt_mm *task = (struct task_struct___sdt_mm *)bpf_get_current_task_btf();
    unsigned long start = BPF_CORE_READ(task, mm, arg_start);
    unsigned long end = BPF_CORE_READ(task, mm, arg_end);
    if (end <= start)
        return 0;
    __u64 length = end - start;
    if (length > SDT_PSARGS_MAX)
        length = SDT_PSARGS_MAX;
    if (bpf_probe_read_user(dst, length & (SDT_PSARGS_MAX * 2 - 1), (const void *)start) != 0)
        return 0;
    return (__u32)length;
}

struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct sdt_scratch);
} sdt_scratch SEC(".maps");

/* Indexed by SDT_SWITCH_*: slot + 1 (0: not enabled). */
struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, SDT_SWITCH_SLOTS);
    __type(key, __u32);
    __type(value, __u32);
} sdt_switch_slots SEC(".maps");

static __always_inline void no_captures(struct live_record *r) {
#pragma unroll
    for (int i = 0; i < LIVE_MAX_CAPTURES; i++) {
        r->capture_length[i] = 0;
        r->capture_arg[i] = 0;
        r->capture_mode[i] = LIVE_CAPTURE_NONE;
    }
}

/* The record of a tracepoint's event for the probes of config slot `slot`. */
static __always_inline int emit_tracepoint(void *ctx, __u32 slot) {
    const struct live_probe_config *cfg = bpf_map_lookup_elem(&live_probes, &slot);
    if (!cfg || !cfg->armed)
        return 0;
    __u64 no_args[LIVE_MAX_ARGS] = {};
    if (!live_filter_passes(&cfg->filter, no_args))
        return 0;
    struct sdt_lock_wait wait = {};
    __u32 mode = cfg->captures[0].mode;
    if ((mode == SDT_CAPTURE_LOCK_BEGIN || mode == SDT_CAPTURE_LOCK_END) && lock_wait(cfg, ctx, &wait))
        return 0;
    __u32 zero = 0;
    struct sdt_scratch *s = bpf_map_lookup_elem(&sdt_scratch, &zero);
    if (!s)
        return 0;
    struct live_record *r = &s->record;
    live_fill_context(r, slot);
    no_captures(r);
#pragma unroll
    for (int i = 0; i < LIVE_MAX_ARGS; i++)
        r->args[i] = 0;
    r->args[0] = SDT_RAW_ADDRESS;
    /* proc:::exit's reason comes from it (sched_process_exit has no code). */
    r->args[2] = BPF_CORE_READ((struct task_struct___sdt_mm *)bpf_get_current_task_btf(), exit_code);
    if (mode == SDT_CAPTURE_LOCK_END) {
        r->args[3] = wait.since;
        r->args[4] = wait.flags;
    }
    r->error = 0;
    r->syscall_nr = -1;
    __u32 length = cfg->capture_limit;
    if (length > LIVE_CAPTURE_MAX)
        length = LIVE_CAPTURE_MAX;
    if (length == 0 || bpf_probe_read_kernel(s->raw, length, ctx) != 0)
        return 0;
    r->capture_length[0] = length;
    r->capture_mode[0] = LIVE_CAPTURE_BYTES;
    __u32 psargs = 0;
    if (cfg->captures[1].mode == SDT_CAPTURE_PSARGS) {
        /* Right after the record copy: the ring takes one contiguous span. */
        psargs = copy_psargs(s->psargs);
        if (length <= LIVE_CAPTURE_MAX && psargs > 0 && psargs <= SDT_PSARGS_MAX)
            bpf_probe_read_kernel(s->raw + length, psargs, s->psargs);
        else
            psargs = 0;
        r->args[1] = SDT_PSARGS_ADDRESS;
        r->capture_length[1] = psargs;
        r->capture_arg[1] = 1;
        r->capture_mode[1] = psargs ? LIVE_CAPTURE_BYTES : LIVE_CAPTURE_NONE;
    }
    __u32 stacks = 0;
    if (cfg->stacks && length <= LIVE_CAPTURE_MAX && psargs <= SDT_PSARGS_MAX)
        stacks = live_append_stacks(ctx, s->raw + length + psargs, cfg->stacks, cfg->user_stack_bytes,
                                    bpf_get_current_task_btf(), 1);
    __u64 size = sizeof *r + length + psargs + stacks;
    r->size = size;
    r->timestamp = bpf_ktime_get_ns();
    if (size > sizeof *s)
        return 0;
    if (bpf_ringbuf_output(&live_events, s, size, live_submit_flags()) != 0)
        live_count_drop();
    return 0;
}

SEC("tracepoint")
int sdt_tracepoint(void *ctx) {
    __u32 slot = bpf_get_attach_cookie(ctx);
    live_run_fastpath(ctx, slot); /* dtrace's program for the tracepoint's probe, if it runs one */
    return emit_tracepoint(ctx, slot);
}

/* The attach cookie is the tracepoint program's, which tail-called dtrace's. */
SEC("tracepoint")
int sdt_declined_event(void *ctx) {
    return emit_tracepoint(ctx, bpf_get_attach_cookie(ctx));
}

/* The filter with the ids and comm of `task` rather than the current one. */
/* Bounded loops (not unrolled): the verifier accepts them. */
static __always_inline int passes_for(const struct live_filter *f, __u64 pid_tgid, __u64 uid_gid, const char *comm) {
    if (f->nclauses == 0)
        return 1;
    __u64 no_args[LIVE_MAX_ARGS] = {};
    for (int c = 0; c < LIVE_MAX_CLAUSES; c++) {
        if (c >= f->nclauses)
            break;
        const struct live_filter_conjunction *conj = &f->clauses[c];
        int holds = 1;
        for (int i = 0; i < LIVE_MAX_TERMS; i++) {
            if (i < conj->nterms && holds && !live_term_holds(&conj->terms[i], pid_tgid, uid_gid, comm, no_args))
                holds = 0;
        }
        if (holds)
            return 1;
    }
    return 0;
}

/* What the switch program reads of a task (CO-RE: the ___sdt suffix names
 * the kernel's struct task_struct and struct cred). */
struct cred___sdt {
    struct {
        __u32 val;
    } uid;
    struct {
        __u32 val;
    } gid;
} __attribute__((preserve_access_index));

struct task_struct___sdt {
    int pid;
    int tgid;
    struct task_struct *real_parent;
    struct sched_entity se;
    const struct cred___sdt *cred;
    char comm[16];
} __attribute__((preserve_access_index));

/* The fields of a switch record (its stacks aside) for thread `task`. */
static __always_inline void fill_switch(struct live_record *r, __u32 slot, struct task_struct *t,
                                        struct task_struct___sdt *task, __u32 peer_tid, __u32 peer_pid, __u64 pid_tgid,
                                        __u64 uid_gid, const char *comm, __u64 prev_state) {
    r->timestamp = bpf_ktime_get_ns();
    r->pid = pid_tgid >> 32;
    r->tid = (__u32)pid_tgid;
    r->uid = (__u32)uid_gid;
    r->gid = uid_gid >> 32;
    r->ppid = task->real_parent->tgid;
    r->vtimestamp = task->se.sum_exec_runtime;
    r->task = (__u64)t;
    r->cpu = bpf_get_smp_processor_id();
    r->slot = slot;
    __builtin_memcpy(r->comm, comm, LIVE_COMM_LEN);
    r->args[0] = peer_tid;
    r->args[1] = peer_pid;
    r->args[2] = prev_state;
    r->args[3] = 0;
    r->args[4] = 0;
    r->args[5] = 0;
    r->size = sizeof *r;
    r->error = 0;
    r->syscall_nr = -1;
    no_captures(r);
}

/* One switch record: the thread described is `t` (the one leaving for
 * off-cpu, the one coming on for on-cpu); args[0], args[1] are the other
 * thread's tid and pid, args[2] the state the previous one left in. With
 * stacks, the record is built in the scratch: `t`'s kernel stack, and its
 * user stack when `t` is the current (leaving) thread. */
static __always_inline void emit_switch_slot(void *ctx, __u32 slot, struct task_struct *t, __u32 peer_tid,
                                             __u32 peer_pid, __u64 prev_state, int current) {
    const struct live_probe_config *cfg = bpf_map_lookup_elem(&live_probes, &slot);
    if (!cfg || !cfg->armed)
        return;
    /* A BTF-typed task: plain loads the verifier checks, no probe reads. */
    struct task_struct___sdt *task = (struct task_struct___sdt *)t;
    __u64 pid_tgid = ((__u64)task->tgid << 32) | (__u32)task->pid;
    __u64 uid_gid = ((__u64)task->cred->gid.val << 32) | task->cred->uid.val;
    char comm[LIVE_COMM_LEN];
    __builtin_memcpy(comm, task->comm, sizeof comm);
    if (!passes_for(&cfg->filter, pid_tgid, uid_gid, comm))
        return;
    if (!cfg->stacks) {
        struct live_record *r = bpf_ringbuf_reserve(&live_events, sizeof *r, 0);
        if (!r) {
            live_count_drop();
            return;
        }
        fill_switch(r, slot, t, task, peer_tid, peer_pid, pid_tgid, uid_gid, comm, prev_state);
        bpf_ringbuf_submit(r, live_submit_flags());
        return;
    }
    __u32 zero = 0;
    struct sdt_scratch *s = bpf_map_lookup_elem(&sdt_scratch, &zero);
    if (!s)
        return;
    fill_switch(&s->record, slot, t, task, peer_tid, peer_pid, pid_tgid, uid_gid, comm, prev_state);
    __u64 size = sizeof s->record + live_append_stacks(ctx, s->raw, cfg->stacks, cfg->user_stack_bytes, t, current);
    s->record.size = size;
    if (size > sizeof *s)
        return;
    if (bpf_ringbuf_output(&live_events, s, size, live_submit_flags()) != 0)
        live_count_drop();
}

static __always_inline void emit_switch(void *ctx, __u32 which, struct task_struct *t, struct task_struct *other,
                                        __u64 prev_state, int current) {
    __u32 *value = bpf_map_lookup_elem(&sdt_switch_slots, &which);
    if (!value || *value == 0)
        return;
    struct task_struct___sdt *peer = (struct task_struct___sdt *)other;
    emit_switch_slot(ctx, *value - 1, t, (__u32)peer->pid, (__u32)peer->tgid, prev_state, current);
}

SEC("tp_btf/sched_switch")
int sdt_switch(__u64 *ctx) {
    /* sched_switch(bool preempt, prev, next, unsigned int prev_state) */
    int preempted = (__u8)ctx[0] != 0 || (__u32)ctx[3] == 0; /* TASK_RUNNING: still runnable */
    struct task_struct *prev = (struct task_struct *)ctx[1];
    struct task_struct *next = (struct task_struct *)ctx[2];
    emit_switch(ctx, preempted ? SDT_SWITCH_PREEMPT : SDT_SWITCH_SLEEP, prev, next, ctx[3], 1);
    emit_switch(ctx, SDT_SWITCH_OFF_CPU, prev, next, ctx[3], 1);
    emit_switch(ctx, SDT_SWITCH_ON_CPU, next, prev, ctx[3], 0);
    return 0;
}

/* sched:::off-cpu's slot + 1 (0: none) for sdt_declined_off_cpu. */
struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, __u32);
} sdt_off_cpu_way_back SEC(".maps");

/* A raw tracepoint's context: the arguments are words, `next` read by
 * probe reads; the thread leaving is the current one (BTF-typed). */
SEC("raw_tp/sched_switch")
int sdt_declined_off_cpu(__u64 *ctx) {
    __u32 zero = 0;
    __u32 *value = bpf_map_lookup_elem(&sdt_off_cpu_way_back, &zero);
    if (!value || *value == 0)
        return 0;
    struct task_struct___sdt *next = (struct task_struct___sdt *)ctx[2];
    emit_switch_slot(ctx, *value - 1, bpf_get_current_task_btf(), (__u32)BPF_CORE_READ(next, pid),
                     (__u32)BPF_CORE_READ(next, tgid), ctx[3], 1);
    return 0;
}
