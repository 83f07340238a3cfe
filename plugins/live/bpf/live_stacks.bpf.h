/*
 * live_stacks.bpf.h: BPF-side copies of the stacks a clause reads: the
 * user stack bytes the unwinder walks (the uprobe program's ustack()), and
 * the stack tail the tracepoint programs append to a record
 * (live_stack_tail.h). Include after live_context.bpf.h.
 */
#ifndef DTRACE_LIVE_STACKS_BPF_H
#define DTRACE_LIVE_STACKS_BPF_H

#include "live_stack_tail.h"

#define LIVE_PF_KTHREAD 0x00200000 /* task_struct.flags: a kernel thread, no user stack */

struct task_struct___live_stacks {
    unsigned int flags;
} __attribute__((preserve_access_index));

/* The largest of a few fixed sizes, up to `wanted`, that can be read from
 * the user stack at `sp` (a stack's top page may end before the largest
 * size does); returns the bytes copied. */
static __always_inline __u32 live_copy_user_stack(char *dst, __u64 sp, __u32 wanted) {
    static const __u32 sizes[] = {8192, 4096, 2048, 1024, 512, 256};
#pragma unroll
    for (int i = 0; i < 6; i++) {
        if (sizes[i] <= wanted && bpf_probe_read_user(dst, sizes[i], (const void *)sp) == 0)
            return sizes[i];
    }
    return 0;
}

/* Writes the stack tail `stacks` (LIVE_STACK_*) asks for at dst, which has
 * room for LIVE_STACK_TAIL_MAX bytes: the stacks of `task`, the current
 * task when `current` (its kernel stack as the program was called, its
 * user stack), else another one (its kernel stack where it sleeps; another
 * process's user memory cannot be read here). Returns the tail's size. */
static __always_inline __u32 live_append_stacks(void *ctx, char *dst, __u32 stacks, __u32 user_stack_bytes,
                                                struct task_struct *task, int current) {
    struct live_stack_tail *tail = (struct live_stack_tail *)dst;
    char *frames = dst + sizeof *tail;
    __u32 kernel = 0, user = 0;
    if (stacks & LIVE_STACK_KERNEL) {
        long n = current ? bpf_get_stack(ctx, frames, LIVE_KERNEL_STACK_MAX, 0)
                         : bpf_get_task_stack(task, frames, LIVE_KERNEL_STACK_MAX, 0);
        if (n > 0 && n <= LIVE_KERNEL_STACK_MAX)
            kernel = (__u32)n;
    }
    struct task_struct___live_stacks *t = (struct task_struct___live_stacks *)task;
    if ((stacks & LIVE_STACK_USER) && current && !(t->flags & LIVE_PF_KTHREAD) &&
        bpf_probe_read_kernel(tail->regs, sizeof tail->regs, (const void *)bpf_task_pt_regs(task)) == 0) {
        if (kernel <= LIVE_KERNEL_STACK_MAX)
            user = live_copy_user_stack(frames + kernel, tail->regs[UPROBE_REG_RSP], user_stack_bytes);
    } else {
        __builtin_memset(tail->regs, 0, sizeof tail->regs);
    }
    tail->kernel_bytes = kernel;
    tail->user_bytes = user;
    return sizeof *tail + kernel + user;
}

#endif /* DTRACE_LIVE_STACKS_BPF_H */
