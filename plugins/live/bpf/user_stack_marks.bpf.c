/*
 * user_stack_marks.bpf.c: keeps the in-kernel ustack() walk from reading
 * the rows of a file no longer mapped where its table says
 * (fastpath_user_stack_marks.h, docs/fastpath.md "Stacks").
 *
 * The table's process changes its code mappings by system calls: mmap,
 * munmap, mprotect, pkey_mprotect, mremap (and exec). At the entry of each
 * one, before the kernel changes anything, the mark programs bump the
 * gate's sequence and, when the call can touch code the table holds (its
 * range overlaps a mapping of the table, or it maps a file's code), zero the
 * `nrows` of every mapping: each walk from then on sends its event to
 * user space, and user space writes the table again. The process's end
 * zeroes them too.
 *
 * User space enables a table (sets the mappings' nrows) only through
 * ustack_publish, and only if no such call began or ended since it read
 * /proc/PID/maps (the sequence it read then) and none is under way (the
 * in-flight map is empty). A mark that comes while the publisher writes
 * waits for it (the sequence's low bit) before zeroing, so that a table
 * read before the call is never enabled after it.
 */
#include <linux/bpf.h>
/* After linux/bpf.h, whose types it uses. */
#include <bpf/bpf_helpers.h>

#include "user_stack_marks.h"

char LICENSE[] SEC("license") = "GPL";

#define PROT_EXEC 0x4
#define MREMAP_FIXED 2
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define PUBLISHING USER_STACK_PUBLISHING
#define MARK_STEP USER_STACK_MARK_STEP
/* How long a mark waits for a publisher (which writes 64 words): a bound the verifier wants. */
#define MARK_WAIT_ROUNDS (1u << 20)

struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct user_stack_gate);
} ustack_gate SEC(".maps");

/* The walk's mappings map (the loader's, shared by file descriptor); its
 * last entry names the table's process (DTRACE_UNWIND_PROCESS_ENTRY). */
struct {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, USER_STACK_MAPPINGS_MAX + 1);
    __type(key, __u32);
    __type(value, struct user_stack_mapping);
} ustack_mappings SEC(".maps");

/* The nrows ustack_publish sets, by mapping. */
struct staged_nrows {
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, USER_STACK_MAPPINGS_MAX);
    __type(key, __u32);
    __type(value, __u32);
} ustack_staged SEC(".maps");

/* Written by user space only to wait for the programs running now: the
 * kernel waits for an RCU grace period (synchronize_rcu()) after a write
 * of a map of maps, and a BPF program (the walk) runs in an RCU read-side
 * section. Its one entry is ustack_staged. */
struct {
    __uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
    __uint(max_entries, 1);
    __type(key, __u32);
    __array(values, struct staged_nrows);
} ustack_grace SEC(".maps");

/* The threads of the process inside a mapping call. */
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 8192);
    __type(key, __u32);
    __type(value, __u32);
} ustack_in_flight SEC(".maps");

/* The tracepoints' records: the common header, the call's number, its arguments. */
struct syscall_enter {
    __u64 header;
    __s32 nr;
    __u32 pad;
    __u64 args[6];
};

static __always_inline struct user_stack_gate *gate_of_current(void) {
    __u32 zero = 0;
    struct user_stack_gate *gate = bpf_map_lookup_elem(&ustack_gate, &zero);
    if (gate == 0 || gate->tgid == 0 || (bpf_get_current_pid_tgid() >> 32) != gate->tgid)
        return 0;
    return gate;
}

/* Whether [start, start + length) meets a mapping of the table. */
static __always_inline int overlaps_table(__u64 start, __u64 length) {
    for (__u32 i = 0; i < USER_STACK_MAPPINGS_MAX; i++) {
        __u32 key = i;
        struct user_stack_mapping *m = bpf_map_lookup_elem(&ustack_mappings, &key);
        if (m && m->start < start + length && start < m->end)
            return 1;
    }
    return 0;
}

static long publisher_done(__u32 index, void *unused) {
    __u32 zero = 0;
    struct user_stack_gate *gate = bpf_map_lookup_elem(&ustack_gate, &zero);
    return gate && (*(volatile __u64 *)&gate->sequence & PUBLISHING) ? 0 : 1;
}

/* Every walk from now on declines: each mapping's nrows is 0. */
static __always_inline void zero_table(struct user_stack_gate *gate) {
    __u32 unused = 0;
    bpf_loop(MARK_WAIT_ROUNDS, publisher_done, &unused, 0);
    for (__u32 i = 0; i < USER_STACK_MAPPINGS_MAX; i++) {
        __u32 key = i;
        struct user_stack_mapping *m = bpf_map_lookup_elem(&ustack_mappings, &key);
        if (m)
            *(volatile __u32 *)&m->nrows = 0;
    }
    __sync_fetch_and_add(&gate->marks, 1);
}

/* The order matters (user space checks that no call is in flight, then
 * that the sequence is the one it read): the thread is in flight before the
 * sequence moves at the entry, and after it moves at the exit. */
static __always_inline int enter(int touches_code) {
    struct user_stack_gate *gate = gate_of_current();
    if (gate == 0)
        return 0;
    __u32 tid = (__u32)bpf_get_current_pid_tgid(), one = 1;
    bpf_map_update_elem(&ustack_in_flight, &tid, &one, BPF_ANY);
    __sync_fetch_and_add(&gate->sequence, MARK_STEP);
    if (touches_code)
        zero_table(gate);
    return 0;
}

static __always_inline int leave(void) {
    struct user_stack_gate *gate = gate_of_current();
    if (gate == 0)
        return 0;
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    __sync_fetch_and_add(&gate->sequence, MARK_STEP);
    /* Its entry unseen (the programs attached during the call): zero now, as it might have. */
    if (bpf_map_delete_elem(&ustack_in_flight, &tid) != 0)
        zero_table(gate);
    return 0;
}

SEC("tracepoint/syscalls/sys_enter_mmap")
int ustack_mmap(struct syscall_enter *call) {
    /* A new mapping replaces code only where it is fixed; a file's code
     * mapped is new rows to write (anonymous code, a JIT's, has none). */
    return enter(((call->args[2] & PROT_EXEC) && !(call->args[3] & MAP_ANONYMOUS)) ||
                 ((call->args[3] & MAP_FIXED) && overlaps_table(call->args[0], call->args[1])));
}

SEC("tracepoint/syscalls/sys_enter_munmap")
int ustack_munmap(struct syscall_enter *call) {
    return enter(overlaps_table(call->args[0], call->args[1]));
}

SEC("tracepoint/syscalls/sys_enter_mprotect")
int ustack_mprotect(struct syscall_enter *call) {
    /* Code made executable elsewhere (a JIT's) has no rows: its pcs decline. */
    return enter(overlaps_table(call->args[0], call->args[1]));
}

SEC("tracepoint/syscalls/sys_enter_pkey_mprotect")
int ustack_pkey_mprotect(struct syscall_enter *call) {
    return enter(overlaps_table(call->args[0], call->args[1]));
}

SEC("tracepoint/syscalls/sys_enter_mremap")
int ustack_mremap(struct syscall_enter *call) {
    return enter((call->args[3] & MREMAP_FIXED) || overlaps_table(call->args[0], call->args[1]));
}

#define ON_EXIT(call)                                                                                                  \
    SEC("tracepoint/syscalls/sys_exit_" #call)                                                                         \
    int ustack_##call##_exit(void *ctx) {                                                                              \
        return leave();                                                                                                \
    }
ON_EXIT(mmap)
ON_EXIT(munmap)
ON_EXIT(mprotect)
ON_EXIT(pkey_mprotect)
ON_EXIT(mremap)

/* An exec replaces every mapping. */
SEC("tracepoint/sched/sched_process_exec")
int ustack_exec(void *ctx) {
    struct user_stack_gate *gate = gate_of_current();
    if (gate == 0)
        return 0;
    __sync_fetch_and_add(&gate->sequence, MARK_STEP);
    zero_table(gate);
    return 0;
}

/* The process's end (its leader's exit): a process given its pid later has
 * other mappings, which no mark of this one announces (a fork() copies its
 * parent's without a mapping call), so the table must not stay enabled. */
SEC("tracepoint/sched/sched_process_exit")
int ustack_exit(void *ctx) {
    struct user_stack_gate *gate = gate_of_current();
    const __u64 id = bpf_get_current_pid_tgid();
    if (gate == 0 || (__u32)id != (__u32)(id >> 32))
        return 0;
    __sync_fetch_and_add(&gate->sequence, MARK_STEP);
    zero_table(gate);
    return 0;
}

/* Run by user space (BPF_PROG_TEST_RUN, ctx[0] the sequence it read before
 * /proc/PID/maps): sets each mapping's nrows from ustack_staged; returns 1,
 * or 0 when a mapping call began or ended since. */
SEC("raw_tp")
int ustack_publish(__u64 *ctx) {
    __u32 zero = 0;
    struct user_stack_gate *gate = bpf_map_lookup_elem(&ustack_gate, &zero);
    if (gate == 0)
        return 0;
    const __u64 expected = ctx[0];
    if (__sync_val_compare_and_swap(&gate->sequence, expected, expected | PUBLISHING) != expected)
        return 0;
    for (__u32 i = 0; i < USER_STACK_MAPPINGS_MAX; i++) {
        __u32 key = i;
        struct user_stack_mapping *m = bpf_map_lookup_elem(&ustack_mappings, &key);
        __u32 *nrows = bpf_map_lookup_elem(&ustack_staged, &key);
        if (m && nrows)
            *(volatile __u32 *)&m->nrows = *nrows;
    }
    __sync_fetch_and_and(&gate->sequence, ~PUBLISHING);
    return 1;
}
