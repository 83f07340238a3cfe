/*
 * target_calls.h: the call tree of the pid/fpid test targets, whose call
 * counts are known exactly (target_calls_expect prints them), and the tiny
 * function the benchmarks call in a tight loop. Every function here is
 * noinline/noipa so that the compiler keeps each call the source makes.
 */
#ifndef DTRACE_TESTS_TARGETS_TARGET_CALLS_H
#define DTRACE_TESTS_TARGETS_TARGET_CALLS_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TARGET_NOINLINE __attribute__((noinline, noipa, used))

/* What parse_request fills: tests read args[1]->method etc. from DWARF. */
struct request {
    int method;       /* 1 GET, 2 PUT, 0 anything else */
    long length;      /* the number after the method */
    char path[32];    /* the word after the number, cut at 31 bytes */
    const char *text; /* the string parsed */
};

/* Parses "METHOD LENGTH PATH"; returns how many of the three fields it found. */
int parse_request(const char *text, struct request *req);

/* Runs the call tree `rounds` times (calls:N). */
void target_calls(long rounds);

/* Prints "function count" for every function target_calls(rounds) calls, in
 * the order of the source, one a line. */
void target_calls_expect(long rounds, FILE *out);

/* The benchmark's callees: tiny_leaf is `lea; ret` in every build (uprobes
 * single-step its first instruction); tiny_framed is the same behind
 * `push %rbp; mov %rsp, %rbp` (uprobes emulate the push). */
int tiny_leaf(int x);
int tiny_framed(int x);

/* Calls tiny_leaf `count` times (loop:N); tiny_framed (loop-framed:N). */
long target_loop(long count);
long target_loop_framed(long count);

#ifdef __cplusplus
}
#endif

#endif
