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

struct mm_struct___live_stacks {
    unsigned long start_stack;
} __attribute__((preserve_access_index));

struct task_struct___live_stacks {
    unsigned int flags;
    struct mm_struct___live_stacks *mm;
} __attribute__((preserve_access_index));

/* Bytes above a main thread's stack start (argc, where _start's frame
 * begins) copied all the same: the outermost frames' rules read nothing
 * there, this keeps a few words of margin. */
#define LIVE_STACK_START_MARGIN 256

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

/* The user stack bytes to copy at `sp` of the current task, at most
 * `wanted`: the main thread's frames all lie below the stack's start
 * (mm->start_stack), and a copy to it (rounded up to one of
 * live_copy_user_stack()'s sizes) holds every frame the unwinder can walk.
 * At a shallow stack this is a few hundred bytes where 8 KB went to the
 * ring (argv, the environment, the auxiliary vector), and a burst of
 * ustack() events filled the ring 10 times as fast. Another thread's stack
 * (sp not within `wanted` below the start) is copied in full. */
static __always_inline __u32 live_user_stack_wanted(__u64 sp, __u32 wanted) {
    struct task_struct___live_stacks *t = (struct task_struct___live_stacks *)bpf_get_current_task_btf();
    __u64 start = t->mm ? t->mm->start_stack : 0;
    if (start < sp || start - sp >= wanted)
        return wanted;
    __u64 needed = start - sp + LIVE_STACK_START_MARGIN;
    __u32 size = 256;
#pragma unroll
    for (int i = 0; i < 5; i++)
        if (size < needed)
            size <<= 1;
    return size < wanted ? size : wanted;
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
            user = live_copy_user_stack(frames + kernel, tail->regs[UPROBE_REG_RSP],
                                        live_user_stack_wanted(tail->regs[UPROBE_REG_RSP], user_stack_bytes));
    } else {
        __builtin_memset(tail->regs, 0, sizeof tail->regs);
    }
    tail->kernel_bytes = kernel;
    tail->user_bytes = user;
    return sizeof *tail + kernel + user;
}

#endif /* DTRACE_LIVE_STACKS_BPF_H */
