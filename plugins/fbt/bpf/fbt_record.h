/*
 * fbt_record.h: the fbt provider's ring record, shared by its BPF programs
 * and the plugin: the live record every live plugin writes (its size field
 * covers only that part, so live/live_firing.h reads it as any other), then
 * the kernel stack at the probe, innermost first. A record in the ring is
 * only as long as its stack: offsetof(struct fbt_record, stack) +
 * stack_bytes.
 */
#ifndef DTRACE_FBT_RECORD_H
#define DTRACE_FBT_RECORD_H

#include "live_record.h"

#define FBT_MAX_FRAMES 64 /* kernel frames kept per firing */

struct fbt_record {
    struct live_record live;
    __s64 stack_bytes; /* bytes of stack filled (bpf_get_stack), or a negative error */
    __u64 stack[FBT_MAX_FRAMES];
};

/* The kernel memory reader's buffer (kernel_read.bpf.c). */
#define FBT_READ_MAX 4096
struct fbt_read_request {
    __u64 address;
    __u32 length;
    __s32 result; /* 0, or bpf_probe_read_kernel's negative error */
};

#endif /* DTRACE_FBT_RECORD_H */
