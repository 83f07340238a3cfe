/* captured_stack.c: captures registers and stack inside libc's qsort.
 * Built with -fomit-frame-pointer: only CFI unwinds these frames. */
#define _GNU_SOURCE /* pthread_getattr_np */
#include "captured_stack.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static captured_stack *target;

/* The top of this thread's stack, so that the copy stays inside it. */
static uintptr_t stack_top(void) {
    pthread_attr_t attr;
    void *base = NULL;
    size_t size = 0;
    pthread_getattr_np(pthread_self(), &attr);
    pthread_attr_getstack(&attr, &base, &size);
    pthread_attr_destroy(&attr);
    return (uintptr_t)base + size;
}

__attribute__((noinline)) static int compare_and_capture(const void *a, const void *b) {
    if (target != NULL) {
        captured_stack *out = target;
        target = NULL;
        uint64_t *r = out->regs;
        /* rip is the address right after the lea: the registers and the
         * stack pointer all belong to that one instruction boundary. */
        __asm__ volatile("lea 0(%%rip), %%rax\n\t"
                         "mov %%rax, 128(%0)\n\t"
                         "mov %%rsp, 56(%0)\n\t"
                         "mov %%rbx, 24(%0)\n\t"
                         "mov %%rbp, 48(%0)\n\t"
                         "mov %%r12, 96(%0)\n\t"
                         "mov %%r13, 104(%0)\n\t"
                         "mov %%r14, 112(%0)\n\t"
                         "mov %%r15, 120(%0)\n\t"
                         :
                         : "r"(r)
                         : "rax", "memory");
        size_t size = stack_top() - (uintptr_t)r[7];
        out->size = size < sizeof out->bytes ? size : sizeof out->bytes;
        memcpy(out->bytes, (const void *)(uintptr_t)r[7], out->size);
    }
    return *(const int *)a - *(const int *)b;
}

__attribute__((noinline)) void capture_in_qsort(captured_stack *out) {
    int values[] = {3, 1, 2};
    target = out;
    qsort(values, 3, sizeof values[0], compare_and_capture);
    __asm__ volatile("" ::: "memory"); /* not a tail call: this frame stays */
}

const void *const captured_stack_functions[2] = {(const void *)compare_and_capture, (const void *)capture_in_qsort};

/* An assembly entry point, untyped (STT_NOTYPE) as ld.so's _start and
 * _dl_start_user are: no function symbol covers its code. Never called. */
__asm__(".text\n"
        ".globl captured_stack_label\n"
        "captured_stack_label:\n"
        "\tnop\n"
        "\tnop\n"
        "\tret\n");
