/*
 * syscall_workload.c: a process with exactly known system calls, for the
 * live tests and benchmarks. Each argument is one step, run in order:
 *
 *   N             N getppid() calls (as syscall(2): nothing of libc caches it)
 *   open:PATH     openat(AT_FDCWD, PATH, O_RDONLY), then close() if it opened
 *   write:TEXT    write(fd of /dev/null, TEXT, strlen(TEXT))
 *   sleep:MS      sleep MS milliseconds
 *
 * Exits 0, or 2 for a step it does not understand.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int step(const char *arg, int null_fd) {
    char *end = NULL;
    if (strncmp(arg, "open:", 5) == 0) {
        int fd = openat(AT_FDCWD, arg + 5, O_RDONLY);
        if (fd >= 0)
            close(fd);
        return 0;
    }
    if (strncmp(arg, "write:", 6) == 0) {
        const char *text = arg + 6;
        return write(null_fd, text, strlen(text)) < 0;
    }
    if (strncmp(arg, "sleep:", 6) == 0) {
        long ms = strtol(arg + 6, &end, 10);
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        return 0;
    }
    long count = strtol(arg, &end, 10);
    if (end == arg || *end != '\0' || count < 0)
        return 2;
    for (long i = 0; i < count; i++)
        syscall(SYS_getppid);
    return 0;
}

int main(int argc, char **argv) {
    int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd < 0) {
        perror("/dev/null");
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        int rc = step(argv[i], null_fd);
        if (rc == 2)
            fprintf(stderr, "syscall_workload: cannot understand '%s'\n", argv[i]);
        if (rc != 0)
            return rc;
    }
    return 0;
}
