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

/* Eight arguments, the last two on the stack (arg6, arg7 at entry). */
long eight_args(long a0, long a1, long a2, long a3, long a4, long a5, long a6, long a7);
/* Calls eight_args(0, 1, 2, 3, 4, 5, 60 + i % 2, 70 + i % 3) for i < count (eight:N). */
long target_eight(long count);

/* What take_record receives (reuse:N): the caller overwrites it, and the
 * string `name` points to, as soon as the call returns, so that only a read
 * at the event sees what the call saw. */
struct record {
    int id;           /* i */
    int flags;        /* i % 3 */
    const char *name; /* "rec-<i>" */
};
int take_record(const struct record *rec);
/* Calls take_record with id i, flags i % 3, name "rec-<i>" for i < count,
 * overwriting each (id -1, flags -1, name "reused") right after the call. */
long target_reuse(long count);

#ifdef __cplusplus
}
#endif

#endif
