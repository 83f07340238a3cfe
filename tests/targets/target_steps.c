/*
 * target_steps.c: the steps of the pid/fpid test targets. Each argument is one
 * step, run in order:
 *
 *   calls:N      the call tree of target_calls.c, N rounds (known counts)
 *   expect:N     print "function count" for calls:N, one a line, to stdout
 *   loop:N       tiny_leaf() N times in a tight loop (the benchmarks)
 *   loop-framed:N  tiny_framed() N times (its first instruction is a push)
 *   eight:N      eight_args(0, 1, 2, 3, 4, 5, 60 + i % 2, 70 + i % 3), i < N
 *                (arguments on the stack)
 *   reuse:N      take_record(&rec) for i < N, rec and its name overwritten
 *                right after each call (copyin at the event)
 *   parse:TEXT   parse_request(TEXT, &req) once (typed args, copyinstr)
 *   dlopen:N     dlopen libpid_target_lib.so (beside the program), call
 *                lib_work N times, dlclose
 *   lib-expect:N print what dlopen:N calls, as expect:N does
 *   spin:MS      calls:1 every millisecond for MS milliseconds (-p attach)
 *   spin-until:PATH  calls:1 every millisecond until PATH exists, at most 60 s
 *                (-p attach however long dtrace takes to start)
 *   lib-spin:N   dlopen the library, call lib_work N times a millisecond
 *                apart, dlclose (-p attach with the library loaded)
 *   wait-file:PATH  sleeps until PATH exists, at most 60 s (-p: a step after
 *                it runs once dtrace is attached)
 *   sleep:MS     sleep MS milliseconds
 *   exit:CODE    _exit(CODE) at once (a target leaving mid-trace)
 *   crash        a write through a null pointer (SIGSEGV mid-trace)
 *   threads:N    calls:N in each of 4 threads at once (exact counts, 4 times
 *                expect:N's, from threads started while traced)
 *   fork:N       a fork child runs calls:N and exits; the parent fails (exit
 *                3) unless it exited 0 (a child of a traced process must not
 *                trip over its parent's breakpoints)
 *   spawn        posix_spawn /bin/true (vfork and exec) and wait for it
 *
 * With TARGET_REPORT set in its environment the program prints its elapsed
 * and CPU seconds to stderr at the end ("target elapsed 0.25 cpu 0.24").
 */
#define _GNU_SOURCE
#include "target_steps.h"

#include "target_calls.h"
#include "target_lib.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(const struct timespec *ts) {
    return (double)ts->tv_sec + (double)ts->tv_nsec / 1e9;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The library's path: beside /proc/self/exe. */
static int library_path(char *path, size_t size) {
    ssize_t n = readlink("/proc/self/exe", path, size - 1);
    if (n <= 0)
        return -1;
    path[n] = '\0';
    char *slash = strrchr(path, '/');
    if (!slash || (size_t)(slash - path) + 1 + sizeof TARGET_LIB_NAME > size)
        return -1;
    strcpy(slash + 1, TARGET_LIB_NAME);
    return 0;
}

static double now_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return seconds(&now);
}

/* dlopen's the library, calls lib_work `rounds` times (every `period_ms`
 * milliseconds when that is not 0), dlclose's it. */
static int run_library(long rounds, long period_ms) {
    char path[PATH_MAX];
    if (library_path(path, sizeof path) != 0) {
        fprintf(stderr, "target: cannot find %s\n", TARGET_LIB_NAME);
        return 1;
    }
    void *lib = dlopen(path, RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "target: %s\n", dlerror());
        return 1;
    }
    int (*work)(int) = (int (*)(int))dlsym(lib, "lib_work");
    volatile long sink = 0;
    for (long i = 0; work && i < rounds; i++) {
        sink += work((int)i);
        if (period_ms > 0)
            sleep_ms(period_ms);
    }
    dlclose(lib);
    return work ? 0 : 1;
}

/* Sleeps a millisecond at a time, calling target_calls(1) before each sleep
 * when `calling`, until `stop_path` exists or, without a path, for `ms`
 * milliseconds; a path that has not appeared after `ms` fails the target. */
static int pace(const char *stop_path, long ms, int calling) {
    for (double start = now_seconds(); !stop_path || access(stop_path, F_OK) != 0; sleep_ms(1)) {
        if ((now_seconds() - start) * 1000 >= (double)ms) {
            if (!stop_path)
                return 0;
            fprintf(stderr, "target: %s did not appear within %ld s\n", stop_path, ms / 1000);
            return 1;
        }
        if (calling)
            target_calls(1);
    }
    return 0;
}

#define TARGET_THREADS 4

static void *thread_calls(void *rounds) {
    target_calls((long)rounds);
    return NULL;
}

static int run_threads(long n) {
    pthread_t threads[TARGET_THREADS];
    for (int i = 0; i < TARGET_THREADS; i++) {
        if (pthread_create(&threads[i], NULL, thread_calls, (void *)n) != 0)
            return 3;
    }
    for (int i = 0; i < TARGET_THREADS; i++)
        pthread_join(threads[i], NULL);
    return 0;
}

static int run_child(long n) {
    pid_t child = fork();
    if (child == 0) {
        target_calls(n);
        _exit(0);
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "target: the fork child failed (status %#x)\n", status);
        return 3;
    }
    return 0;
}

static int run_spawn(void) {
    extern char **environ;
    char *argv[] = {"true", NULL};
    pid_t child;
    int status = 0;
    if (posix_spawn(&child, "/bin/true", NULL, NULL, argv, environ) != 0 || waitpid(child, &status, 0) != child ||
        !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "target: the spawned child failed (status %#x)\n", status);
        return 3;
    }
    return 0;
}

static int step(const char *arg, target_extra_step extra) {
    const char *colon = strchr(arg, ':');
    long n = colon ? strtol(colon + 1, NULL, 10) : 0;
    size_t name = colon ? (size_t)(colon - arg) : strlen(arg);
#define IS(word) (name == sizeof(word) - 1 && strncmp(arg, word, name) == 0)
    if (IS("calls"))
        target_calls(n);
    else if (IS("expect"))
        target_calls_expect(n, stdout);
    else if (IS("loop"))
        target_loop(n);
    else if (IS("loop-framed"))
        target_loop_framed(n);
    else if (IS("eight"))
        target_eight(n);
    else if (IS("reuse"))
        target_reuse(n);
    else if (IS("parse")) {
        struct request req;
        parse_request(colon ? colon + 1 : "", &req);
    } else if (IS("dlopen"))
        return run_library(n, 0);
    else if (IS("lib-spin"))
        return run_library(n, 1);
    else if (IS("wait-file"))
        return pace(colon ? colon + 1 : "", 60000, 0);
    else if (IS("lib-expect"))
        printf("lib_work %ld\nlib_helper %ld\n", n, n * TARGET_LIB_HELPER_CALLS);
    else if (IS("spin"))
        pace(NULL, n, 1);
    else if (IS("spin-until"))
        return pace(colon ? colon + 1 : "", 60000, 1);
    else if (IS("sleep"))
        sleep_ms(n);
    else if (IS("exit"))
        _exit((int)n);
    else if (IS("crash"))
        *(volatile int *)NULL = 1;
    else if (IS("threads"))
        return run_threads(n);
    else if (IS("fork"))
        return run_child(n);
    else if (IS("spawn"))
        return run_spawn();
    else if (!extra || !extra(arg)) {
        fprintf(stderr, "target: unknown step %s\n", arg);
        return 2;
    }
#undef IS
    return 0;
}

int target_run_steps(int argc, char **argv, target_extra_step extra) {
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int i = 1; i < argc; i++) {
        int status = step(argv[i], extra);
        if (status != 0)
            return status;
    }
    fflush(stdout);
    if (getenv("TARGET_REPORT")) {
        struct rusage usage;
        clock_gettime(CLOCK_MONOTONIC, &end);
        getrusage(RUSAGE_SELF, &usage);
        fprintf(stderr, "target elapsed %.3f cpu %.3f\n", seconds(&end) - seconds(&start),
                (double)usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec +
                    usage.ru_stime.tv_usec / 1e6);
    }
    return 0;
}
