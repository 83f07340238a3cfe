/*
 * target_calls.c: the call tree behind the `calls:N` step of the pid/fpid test
 * targets, with its exact call counts (target_calls_expect), and the tight
 * loop of the `loop:N` step. Change the tree and its expectations together:
 * the live tests compare a traced run against what this file prints.
 */
#include "target_calls.h"

#include <stdlib.h>
#include <string.h>

static const char *const kRequests[] = {"GET 10 /index.html", "PUT 2048 /upload", "DELETE 7 /old"};

TARGET_NOINLINE int parse_method(const char *word, size_t length) {
    if (length == 3 && memcmp(word, "GET", 3) == 0)
        return 1;
    if (length == 3 && memcmp(word, "PUT", 3) == 0)
        return 2;
    return 0;
}

TARGET_NOINLINE const char *parse_word(const char *text, const char **end) {
    while (*text == ' ')
        text++;
    *end = text;
    while (**end && **end != ' ')
        (*end)++;
    return text;
}

TARGET_NOINLINE int parse_request(const char *text, struct request *req) {
    const char *end;
    const char *word = parse_word(text, &end);
    int found = 0;
    memset(req, 0, sizeof *req);
    req->text = text;
    if (end > word) {
        req->method = parse_method(word, (size_t)(end - word));
        found++;
    }
    word = parse_word(end, &end);
    if (end > word) {
        req->length = strtol(word, NULL, 10);
        found++;
    }
    word = parse_word(end, &end);
    if (end > word) {
        size_t n = (size_t)(end - word) < sizeof req->path ? (size_t)(end - word) : sizeof req->path - 1;
        memcpy(req->path, word, n);
        found++;
    }
    return found;
}

/* Straight-line code, no branch: every instruction runs once per call, which
 * the offset tests (pid$target:a.out:respond:*) count on. */
TARGET_NOINLINE long respond(long length, int method) {
    return length * 3 + method;
}

TARGET_NOINLINE long handle_request(const struct request *req) {
    return respond(req->length, req->method);
}

/* The empty asm keeps GCC from turning the recursion into a loop. */
TARGET_NOINLINE int recurse(int depth) {
    if (depth == 0)
        return 0;
    int below = recurse(depth - 1);
    __asm__ volatile("" : "+r"(below));
    return below + 1;
}

TARGET_NOINLINE void rarely(void) {
    __asm__ volatile("" ::: "memory");
}

#define RECURSE_DEPTH 3

TARGET_NOINLINE void target_calls(long rounds) {
    volatile long sink = 0;
    for (long i = 0; i < rounds; i++) {
        struct request req;
        sink += parse_request(kRequests[i % 3], &req);
        sink += handle_request(&req);
        sink += recurse(RECURSE_DEPTH);
        if (i % 10 == 0)
            rarely();
    }
}

void target_calls_expect(long rounds, FILE *out) {
    fprintf(out, "parse_request %ld\n", rounds);
    fprintf(out, "parse_word %ld\n", rounds * 3);
    fprintf(out, "parse_method %ld\n", rounds);
    fprintf(out, "handle_request %ld\n", rounds);
    fprintf(out, "respond %ld\n", rounds);
    fprintf(out, "recurse %ld\n", rounds * (RECURSE_DEPTH + 1));
    fprintf(out, "rarely %ld\n", (rounds + 9) / 10);
}

TARGET_NOINLINE int tiny_leaf(int x) {
    return x + 1;
}

/* tiny_leaf with a frame, written in assembly because GCC gives a leaf no
 * frame whatever the options: its first instruction, push %rbp, is one that
 * uprobes emulate instead of single-stepping. */
__asm__(".text\n"
        ".globl tiny_framed\n"
        ".type tiny_framed, @function\n"
        "tiny_framed:\n"
        "    push %rbp\n"
        "    mov %rsp, %rbp\n"
        "    lea 1(%rdi), %eax\n"
        "    pop %rbp\n"
        "    ret\n"
        ".size tiny_framed, .-tiny_framed\n");

TARGET_NOINLINE long target_loop(long count) {
    long sum = 0;
    for (long i = 0; i < count; i++)
        sum += tiny_leaf((int)i);
    return sum;
}

TARGET_NOINLINE long eight_args(long a0, long a1, long a2, long a3, long a4, long a5, long a6, long a7) {
    return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

TARGET_NOINLINE long target_eight(long count) {
    long sum = 0;
    for (long i = 0; i < count; i++)
        sum += eight_args(0, 1, 2, 3, 4, 5, 60 + i % 2, 70 + i % 3);
    return sum;
}

TARGET_NOINLINE long target_loop_framed(long count) {
    long sum = 0;
    for (long i = 0; i < count; i++)
        sum += tiny_framed((int)i);
    return sum;
}

TARGET_NOINLINE int take_record(const struct record *rec) {
    return rec->id + rec->flags;
}

TARGET_NOINLINE long target_reuse(long count) {
    static char name[16];
    static struct record rec;
    long sum = 0;
    for (long i = 0; i < count; i++) {
        snprintf(name, sizeof name, "rec-%ld", i);
        rec.id = (int)i;
        rec.flags = (int)(i % 3);
        rec.name = name;
        sum += take_record(&rec);
        rec.id = rec.flags = -1;
        strcpy(name, "reused");
    }
    return sum;
}
