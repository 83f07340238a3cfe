/*
 * live_fetch.bpf.h: runs a probe's fetch steps (live_fetch.h) at the event,
 * so that dtrace answers its clauses' reads from what memory held when the
 * probe fired rather than when the clause runs. One loop for the uprobe
 * program (uprobe_events.bpf.c: the process's memory) and fbt's
 * (kernel_fetch.bpf.h: the kernel's, and the process's at user addresses:
 * copyin(), copyinstr(), user pointers a function was given), told by
 * live_fetch_where which of them it is and the sizes of its record.
 */
#ifndef DTRACE_LIVE_FETCH_BPF_H
#define DTRACE_LIVE_FETCH_BPF_H

#include <bpf/bpf_helpers.h>

#include "live_fetch.h"
#include "live_record.h"

#define LIVE_FETCH_EFAULT 14

/* A program's steps and where their reads go: fetched[i] tells step i's,
 * whose bytes are in data (data_size bytes, each read of at most
 * max_length; data_size and data_size - max_length powers of two, for the
 * masks that bound offsets). Constants at each caller, so that the
 * verifier sees them. */
struct live_fetch_where {
    __u32 max_steps;
    __u32 max_length;
    __u32 data_size;
    __u32 reads_kernel; /* 0: every step reads user memory; else kernel addresses read the kernel's */
};

/* The address step `i` reads; 0 when its base is unknown (an earlier read
 * failed, or curthread in a program of user memory). */
static __always_inline __u64 live_fetch_address(const struct live_fetch_where where, const struct live_fetch_step *step,
                                                __u32 i, const __u64 *args, const struct live_fetched *fetched,
                                                const __u8 *data) {
    __u64 base = 0;
    __u32 k = step->index;
    switch (step->base) {
    case LIVE_FETCH_ARG:
        if (k >= LIVE_MAX_ARGS)
            return 0;
        base = args[k];
        break;
    case LIVE_FETCH_CURTHREAD:
        if (!where.reads_kernel)
            return 0;
        base = bpf_get_current_task();
        break;
    case LIVE_FETCH_ABSOLUTE:
        break;
    case LIVE_FETCH_POINTER:
        if (k >= i || k >= where.max_steps || fetched[k].length < 8)
            return 0;
        base = *(const __u64 *)(data + (fetched[k].data_offset & (where.data_size - 8)));
        if (base == 0)
            return 0;
        break;
    default:
        return 0;
    }
    return base + step->offset;
}

/* Reads step's `length` bytes (a string: at most that, with its NUL) at
 * address into dst: the bytes read, or a negative error. The address says
 * whose memory it is (a kernel read of a user address always fails). */
static __always_inline long live_fetch_read(const struct live_fetch_where where, const struct live_fetch_step *step,
                                            void *dst, __u32 length, __u64 address) {
    const void *src = (const void *)address;
    if (where.reads_kernel && address >= LIVE_KERNEL_ADDRESS_START) {
        if (step->flags & LIVE_FETCH_STRING)
            return bpf_probe_read_kernel_str(dst, length, src);
        return bpf_probe_read_kernel(dst, length, src) == 0 ? length : -LIVE_FETCH_EFAULT;
    }
    if (step->flags & LIVE_FETCH_STRING)
        return bpf_probe_read_user_str(dst, length, src);
    return bpf_probe_read_user(dst, length, src) == 0 ? length : -LIVE_FETCH_EFAULT;
}

/* Runs steps[0 .. nsteps) (args: the record's arguments) into fetched[] and
 * data; sets *nfetched to the steps run and returns the bytes of data used. */
static __always_inline __u32 live_run_fetch_steps(const struct live_fetch_where where,
                                                  const struct live_fetch_step *steps, __u32 nsteps, const __u64 *args,
                                                  struct live_fetched *fetched, __u8 *data, __u32 *nfetched) {
    __u32 used = 0;
    *nfetched = 0;
    for (__u32 i = 0; i < where.max_steps; i++) {
        /* Room for the longest read: every read starts below data_size - max_length. */
        if (i >= nsteps || used >= where.data_size - where.max_length)
            break;
        const struct live_fetch_step *step = &steps[i];
        /* The verifier must see this bound, which clang would drop as redundant. */
        __u64 at = used;
        asm volatile("" : "+r"(at));
        at &= where.data_size - where.max_length - 1;
        __u32 length = step->length;
        if (length > where.max_length)
            length = where.max_length;
        if (length == 0)
            length = 1;
        const __u64 address = live_fetch_address(where, step, i, args, fetched, data);
        long got = -LIVE_FETCH_EFAULT;
        if (address != 0)
            got = live_fetch_read(where, step, data + at, length, address);
        fetched[i].address = address;
        fetched[i].length = got;
        fetched[i].data_offset = (__u16)at;
        fetched[i].flags = step->flags;
        if (got > 0)
            used = (__u32)at + (((__u32)got + 7) & ~7u);
        *nfetched = i + 1;
    }
    return used;
}

#endif /* DTRACE_LIVE_FETCH_BPF_H */
