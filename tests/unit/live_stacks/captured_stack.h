/* captured_stack.h: a stack captured inside libc's qsort, for the unwinder tests. */
#ifndef LIVE_STACKS_CAPTURED_STACK_H
#define LIVE_STACKS_CAPTURED_STACK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a perf sample would carry: the registers (DWARF numbering: rax rdx
 * rcx rbx rsi rdi rbp rsp r8-r15, then rip) and a copy of the stack from rsp. */
typedef struct captured_stack {
    uint64_t regs[17];
    uint8_t bytes[16384];
    size_t size;
} captured_stack;

/* Calls qsort, whose comparison function captures the stack once:
 * capture_in_qsort -> qsort (libc) -> ... -> compare_and_capture. */
void capture_in_qsort(captured_stack *out);

/* Addresses of the functions, to check the unwound frames against. */
extern const void *const captured_stack_functions[2]; /* compare_and_capture, capture_in_qsort */

/* An assembly label in the code (an untyped symbol, as ld.so's entry), never called. */
void captured_stack_label(void);

#ifdef __cplusplus
}
#endif

#endif
