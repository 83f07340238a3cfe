/*
 * live_fetch.h: the steps a probe's BPF program runs at the event to read
 * the memory its clauses will read (dtrace's fetch plan,
 * dtrace_probe_usage.fetches: copyin() of the pid provider, fbt's kernel
 * loads), and what each step read. Shared by the uprobe program
 * (uprobe_record.h) and fbt's (fbt_record.h), which bound them by their own
 * sizes, and run by live_fetch.bpf.h. Bases and flags are numbered as
 * dtrace's (provider.h's DTRACE_FETCH_*).
 */
#ifndef DTRACE_LIVE_FETCH_H
#define DTRACE_LIVE_FETCH_H

#include <linux/types.h>

/* Where a step's address starts: that base plus the step's `offset`. */
#define LIVE_FETCH_ARG 0       /* argument `index` of the record */
#define LIVE_FETCH_CURTHREAD 1 /* the current task */
#define LIVE_FETCH_ABSOLUTE 2  /* 0: `offset` is the address */
#define LIVE_FETCH_POINTER 3   /* the 8 bytes step `index` read */

#define LIVE_FETCH_STRING 0x1 /* flags: a NUL-terminated string of at most `length` bytes */

/* x86-64: addresses from here up are the kernel's, those below the
 * process's (user memory: copyin()'s, or a user pointer a kernel function
 * was given). */
#define LIVE_KERNEL_ADDRESS_START 0xffff800000000000ULL

struct live_fetch_step {
    __u8 base;
    __u8 flags;
    __u16 index;
    __u32 length;
    __s64 offset;
};

/* What one step read: `length` bytes (a string's with its NUL) of `address`
 * at data_offset in the fetched bytes, or a negative error (the address was
 * not readable). */
struct live_fetched {
    __u64 address;
    __s32 length;
    __u16 data_offset;
    __u16 flags; /* the step's */
};

#ifdef __cplusplus
#include <dtrace/provider.h>
static_assert(LIVE_FETCH_ARG == DTRACE_FETCH_ARG && LIVE_FETCH_CURTHREAD == DTRACE_FETCH_CURTHREAD &&
                  LIVE_FETCH_ABSOLUTE == DTRACE_FETCH_ABSOLUTE && LIVE_FETCH_POINTER == DTRACE_FETCH_POINTER &&
                  LIVE_FETCH_STRING == DTRACE_FETCH_STRING,
              "fetch steps use dtrace's numbering");
#endif

#endif /* DTRACE_LIVE_FETCH_H */
