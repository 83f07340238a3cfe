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

#include "live_fetch.h"
#include "live_record.h"

#define FBT_MAX_FRAMES 64 /* kernel frames kept per firing */

/* Kernel memory read at the event (kernel_fetch.bpf.h, steps of
 * live_fetch.h; the process's at user addresses): at most FBT_MAX_FETCHES
 * reads per firing (dtrace's DTRACE_USAGE_MAX_FETCHES), each of at most
 * FBT_FETCH_MAX_LENGTH bytes, FBT_FETCH_DATA bytes in all. */
#define FBT_MAX_FETCHES 16
#define FBT_FETCH_MAX_LENGTH 2048
#define FBT_FETCH_DATA 4096

/* What one probe slot's program does besides the live configuration (the
 * fbt_plans map, by slot): its fetches (nsteps 0: none), and at a return
 * probe arg0, the offset of the function's return instruction (0: not
 * known; return_offset.h). */
struct fbt_fetch_plan {
    __u32 nsteps;
    __u32 return_offset;
    struct live_fetch_step steps[FBT_MAX_FETCHES];
};

struct fbt_record {
    struct live_record live;
    __s64 stack_bytes; /* bytes of stack filled (bpf_get_stack), or a negative error */
    __u32 nfetched;    /* steps of the probe's plan run: fetched[0 .. nfetched) */
    __u32 fetch_bytes; /* data used */
    __u64 stack[FBT_MAX_FRAMES];
    struct live_fetched fetched[FBT_MAX_FETCHES];
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
