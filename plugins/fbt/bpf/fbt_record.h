/*
 * fbt_record.h: the fbt provider's ring record, shared by its BPF programs
 * and the plugin: the live record every live plugin writes (its size field
 * covers only that part, so live/live_firing.h reads it as any other), then
 * the kernel stack at the probe, innermost first, then the kernel memory
 * the probe's clauses load, read at the event. A record in the ring is only
 * as long as what it holds: offsetof(struct fbt_record, stack) +
 * stack_bytes without fetches, offsetof(struct fbt_record, data) +
 * fetch_bytes with them.
 */
#ifndef DTRACE_FBT_RECORD_H
#define DTRACE_FBT_RECORD_H

#include "live_record.h"

#define FBT_MAX_FRAMES 64 /* kernel frames kept per firing */

/* Kernel memory read at the event (kernel_fetch.h): at most FBT_MAX_FETCHES
 * reads per firing (dtrace's DTRACE_USAGE_MAX_FETCHES), each of at most
 * FBT_FETCH_MAX_LENGTH bytes, FBT_FETCH_DATA bytes in all. */
#define FBT_MAX_FETCHES 16
#define FBT_FETCH_MAX_LENGTH 2048
#define FBT_FETCH_DATA 4096

/* Where a fetch's address starts (dtrace_memory_fetch's bases). */
#define FBT_FETCH_ARG 0       /* argument `index` of the record */
#define FBT_FETCH_CURTHREAD 1 /* the current task */
#define FBT_FETCH_ABSOLUTE 2  /* 0: `offset` is the address */
#define FBT_FETCH_POINTER 3   /* the 8 bytes fetch `index` read */
#define FBT_FETCH_STRING 0x1  /* flags: a NUL-terminated string of at most `length` bytes */
#define FBT_FETCH_USER 0x2    /* flags: user memory (copyinstr()'s), not the kernel's */

struct fbt_fetch_step {
    __u8 base;
    __u8 flags;
    __u16 index;
    __u32 length;
    __s64 offset;
};

/* What one probe slot's program does besides the live configuration (the
 * fbt_plans map, by slot): its fetches (nsteps 0: none), and at a return
 * probe arg0, the offset of the function's return instruction (0: not
 * known; return_offset.h). */
struct fbt_fetch_plan {
    __u32 nsteps;
    __u32 return_offset;
    struct fbt_fetch_step steps[FBT_MAX_FETCHES];
};

/* What one step read: `length` bytes (a string's with its NUL) of `address`
 * at data[data_offset], or a negative error (the address was not readable). */
struct fbt_fetched {
    __u64 address;
    __s32 length;
    __u16 data_offset;
    __u16 flags; /* the step's (FBT_FETCH_STRING) */
};

struct fbt_record {
    struct live_record live;
    __s64 stack_bytes; /* bytes of stack filled (bpf_get_stack), or a negative error */
    __u32 nfetched;    /* steps of the probe's plan run: fetched[0 .. nfetched) */
    __u32 fetch_bytes; /* data used */
    __u64 stack[FBT_MAX_FRAMES];
    struct fbt_fetched fetched[FBT_MAX_FETCHES];
    __u8 data[FBT_FETCH_DATA];
};

/* The kernel memory reader's buffer (kernel_read.bpf.c). */
#define FBT_READ_MAX 4096
struct fbt_read_request {
    __u64 address;
    __u32 length;
    __s32 result; /* 0, or bpf_probe_read_kernel's negative error */
};

#endif /* DTRACE_FBT_RECORD_H */
