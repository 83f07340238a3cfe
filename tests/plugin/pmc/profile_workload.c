/* profile_workload.c: the target of the live sampling tests, built without
 * frame pointers (as Debian's libc is) so that only CFI unwinds it.
 *
 *   profile_workload copy N      N memcpy()s of 64 KiB (time in libc)
 *   profile_workload syscalls N  N getppid() calls (time in the kernel)
 *   profile_workload touch N     writes to N new pages (N page faults in touch_pages,
 *                                which it counts itself and prints)
 *   profile_workload readpages N  3 read()s of N pages of /dev/zero, each into N new pages
 *                                (the kernel faults each page in: N faults per read)
 *   profile_workload sleep S     sleeps S seconds
 *   profile_workload spin S      keeps every CPU busy for S seconds (one thread pinned to each)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* Not static: the compiler must assume they are read elsewhere, so the copies stay. */
char source[1 << 16], destination[1 << 16];

__attribute__((noinline)) static void copy_loop(long n) {
    for (long i = 0; i < n; i++) {
        memcpy(destination, source, sizeof destination);
        source[i & 0xffff] = (char)i;
        __asm__ volatile("" ::: "memory");
    }
}

__attribute__((noinline)) static void syscall_loop(long n) {
    for (long i = 0; i < n; i++)
        getppid();
}

__attribute__((noinline)) static void touch_pages(long n) {
    const long page = sysconf(_SC_PAGESIZE);
    char *pages = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    /* One fault per page: no transparent huge pages. */
    madvise(pages, (size_t)(n * page), MADV_NOHUGEPAGE);
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    for (long i = 0; i < n; i++)
        pages[i * page] = 1;
    getrusage(RUSAGE_SELF, &after);
    printf("touch_pages faults %ld\n", after.ru_minflt - before.ru_minflt);
    munmap(pages, (size_t)(n * page));
}

__attribute__((noinline)) static void read_into_new_pages(long n) {
    const long page = sysconf(_SC_PAGESIZE);
    FILE *zero = fopen("/dev/zero", "r");
    if (zero == NULL) {
        perror("/dev/zero");
        exit(1);
    }
    for (int round = 0; round < 3; round++) {
        char *pages = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (pages == MAP_FAILED) {
            perror("mmap");
            exit(1);
        }
        madvise(pages, (size_t)(n * page), MADV_NOHUGEPAGE);
        if (read(fileno(zero), pages, (size_t)(n * page)) != n * page) {
            perror("read");
            exit(1);
        }
        munmap(pages, (size_t)(n * page));
    }
    fclose(zero);
}

static double spin_seconds;

static void *spin_on(void *cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET((int)(long)cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do
        clock_gettime(CLOCK_MONOTONIC, &now);
    while ((double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9 < spin_seconds);
    return NULL;
}

__attribute__((noinline)) static void spin_every_cpu(long seconds) {
    enum { kMaxCpus = 256 };
    pthread_t threads[kMaxCpus];
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus > kMaxCpus)
        cpus = kMaxCpus;
    spin_seconds = (double)seconds;
    for (long cpu = 0; cpu < cpus; cpu++)
        pthread_create(&threads[cpu], NULL, spin_on, (void *)cpu);
    for (long cpu = 0; cpu < cpus; cpu++)
        pthread_join(threads[cpu], NULL);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s copy|syscalls|touch|readpages|sleep|spin N\n", argv[0]);
        return 2;
    }
    const long n = atol(argv[2]);
    if (strcmp(argv[1], "copy") == 0)
        copy_loop(n);
    else if (strcmp(argv[1], "syscalls") == 0)
        syscall_loop(n);
    else if (strcmp(argv[1], "touch") == 0)
        touch_pages(n);
    else if (strcmp(argv[1], "readpages") == 0)
        read_into_new_pages(n);
    else if (strcmp(argv[1], "sleep") == 0)
        sleep((unsigned)n);
    else if (strcmp(argv[1], "spin") == 0)
        spin_every_cpu(n);
    else
        return 2;
    return 0;
}
