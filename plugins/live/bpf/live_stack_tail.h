/*
 * live_stack_tail.h: the stacks a tracepoint program (syscall, sdt) appends
 * to its record, after the captures, when a clause of the probe reads them
 * (live_probe_config.stacks):
 *
 *   [live_record][capture bytes][live_stack_tail][kernel frames][user stack bytes]
 *
 * The kernel frames are program counters, innermost first, as
 * bpf_get_stack() writes them. The user part is what the user space
 * unwinder needs: the registers the thread entered the kernel with (the
 * kernel's struct pt_regs, in uprobe_record.h's order) and the bytes of its
 * user stack from the stack pointer on. A record without a tail has none.
 */
#ifndef DTRACE_LIVE_STACK_TAIL_H
#define DTRACE_LIVE_STACK_TAIL_H

#include "uprobe_record.h"

#define LIVE_KERNEL_FRAMES 127 /* the kernel's perf_event_max_stack default */
#define LIVE_KERNEL_STACK_MAX (LIVE_KERNEL_FRAMES * 8)
#define LIVE_USER_STACK_MAX UPROBE_STACK_MAX

struct live_stack_tail {
    __u64 regs[UPROBE_NREGS]; /* zero when the user stack was not copied */
    __u32 kernel_bytes;       /* frames * 8, <= LIVE_KERNEL_STACK_MAX */
    __u32 user_bytes;         /* <= LIVE_USER_STACK_MAX */
};

#define LIVE_STACK_TAIL_MAX (sizeof(struct live_stack_tail) + LIVE_KERNEL_STACK_MAX + LIVE_USER_STACK_MAX)

#endif /* DTRACE_LIVE_STACK_TAIL_H */
