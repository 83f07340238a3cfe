/*
 * syscall_workload.c: a process with exactly known system calls, for the
 * live tests and benchmarks. Each argument is one step, run in order:
 *
 *   N             N getppid() calls (as syscall(2): nothing of libc caches it)
 *   open:PATH     openat(AT_FDCWD, PATH, O_RDONLY), then close() if it opened
 *   opens:N:PATH  the same N times
 *   write:TEXT    write(fd of /dev/null, TEXT, strlen(TEXT))
 *   fdwrite:PATH:OFFSET
 *                 open PATH (write, create, append), write 10 bytes, seek to
 *                 OFFSET, fsync(); the file stays open
 *   fdread:PATH:OFFSET
 *                 open PATH (read), seek to OFFSET, read 4 bytes; it stays open
 *   fdclose:PATH  open PATH (read), fsync(), close()
 *   fsync:FD      fsync(FD) (a bad descriptor: -1, 999)
 *   sleep:MS      sleep MS milliseconds
 *   dlopen:N:PATH dlopen(PATH) now, then its workload_calls(N): N getppid()
 *                 calls from the library's code (ustack_dlopen_lib.c)
 *
 * Exits 0, or 2 for a step it does not understand. With SYSCALL_WORKLOAD_REPORT
 * set in its environment it prints, to stderr, its own elapsed and CPU seconds
 * ("workload elapsed 0.25 cpu 0.24"), for the benchmarks.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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
    if (strncmp(arg, "opens:", 6) == 0) {
        long n = strtol(arg + 6, &end, 10);
        if (end == arg + 6 || *end != ':' || n < 0)
            return 2;
        for (long i = 0; i < n; i++) {
            int fd = openat(AT_FDCWD, end + 1, O_RDONLY);
            if (fd >= 0)
                close(fd);
        }
        return 0;
    }
    if (strncmp(arg, "write:", 6) == 0) {
        const char *text = arg + 6;
        return write(null_fd, text, strlen(text)) < 0;
    }
    if (strncmp(arg, "dlopen:", 7) == 0) {
        long n = strtol(arg + 7, &end, 10);
        if (end == arg + 7 || *end != ':' || n < 0)
            return 2;
        void *library = dlopen(end + 1, RTLD_NOW);
        void (*calls)(long) = library ? (void (*)(long))dlsym(library, "workload_calls") : NULL;
        if (calls == NULL) {
            fprintf(stderr, "syscall_workload: %s\n", dlerror());
            return 1;
        }
        calls(n);
        return 0;
    }
    if (strncmp(arg, "fdwrite:", 8) == 0 || strncmp(arg, "fdread:", 7) == 0) {
        const int writing = arg[2] == 'w';
        const char *path = strchr(arg, ':') + 1;
        const char *colon = strrchr(path, ':');
        if (colon == NULL || colon == path)
            return 2;
        long offset = strtol(colon + 1, &end, 10);
        if (*end != '\0' || offset < 0)
            return 2;
        static char file[4096]; // not on the stack: the kernel path's ustack() walk copies 8 KB of it
        snprintf(file, sizeof file, "%.*s", (int)(colon - path), path);
        int fd = writing ? open(file, O_WRONLY | O_CREAT | O_APPEND, 0600) : open(file, O_RDONLY);
        char bytes[10] = "0123456789";
        if (fd < 0 || (writing && write(fd, bytes, sizeof bytes) != sizeof bytes) ||
            lseek(fd, offset, SEEK_SET) != offset)
            return 1;
        return writing ? fsync(fd) != 0 : read(fd, bytes, 4) < 0;
    }
    if (strncmp(arg, "fdclose:", 8) == 0) {
        int fd = open(arg + 8, O_RDONLY);
        if (fd < 0)
            return 1;
        fsync(fd);
        return close(fd) != 0;
    }
    if (strncmp(arg, "fsync:", 6) == 0) {
        fsync((int)strtol(arg + 6, NULL, 10));
        return 0;
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

static double seconds(struct timespec t) {
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void report(struct timespec start) {
    struct timespec end;
    struct rusage usage;
    clock_gettime(CLOCK_MONOTONIC, &end);
    getrusage(RUSAGE_SELF, &usage);
    double cpu = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec +
                 (double)usage.ru_stime.tv_usec / 1e6;
    fprintf(stderr, "workload elapsed %.3f cpu %.3f\n", seconds(end) - seconds(start), cpu);
}

int main(int argc, char **argv) {
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
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
    if (getenv("SYSCALL_WORKLOAD_REPORT") != NULL)
        report(start);
    return 0;
}
