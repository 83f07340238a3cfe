/* bpf_prog_stats.c: the in-kernel cost of the BPF programs a command loads,
 * read from the kernel rather than timed from outside: with BPF statistics
 * on (BPF_ENABLE_STATS, as sysctl kernel.bpf_stats_enabled), the kernel
 * counts each program's runs and the nanoseconds they took (a tail-called
 * program's time counts to its caller). Runs COMMAND, samples every
 * program every 10 ms while it runs (a tracer unloads its programs as it
 * exits), and prints the programs loaded meanwhile that ran at least
 * MIN_RUNS times: runs, ns per run, and the size of their code as the
 * kernel runs it (xlated BPF instructions, JITed bytes).
 *
 *   bpf_prog_stats MIN_RUNS COMMAND [ARG...]
 *
 * Output, one line per program: "id type name runs ns_per_run xlated_insns jited_bytes".
 * Needs root. Built by bench/fastpath_syscall.sh (cc ... -lbpf).
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PROGRAMS 4096

struct sample {
    __u32 id;
    __u32 type;
    char name[BPF_OBJ_NAME_LEN];
    __u64 runs, ns;
    __u32 xlated_insns, jited_bytes;
};

static struct sample samples[MAX_PROGRAMS];
static size_t sample_count;
static __u32 known_before[MAX_PROGRAMS];
static size_t known_before_count;

static int was_known(__u32 id) {
    for (size_t i = 0; i < known_before_count; i++)
        if (known_before[i] == id)
            return 1;
    return 0;
}

static struct sample *sample_of(__u32 id) {
    for (size_t i = 0; i < sample_count; i++)
        if (samples[i].id == id)
            return &samples[i];
    if (sample_count == MAX_PROGRAMS)
        return NULL;
    samples[sample_count].id = id;
    return &samples[sample_count++];
}

/* Visits every loaded program: records its id (before the command) or its
 * latest statistics (while it runs). */
static void visit_programs(int before) {
    __u32 id = 0;
    while (bpf_prog_get_next_id(id, &id) == 0) {
        if (before) {
            if (known_before_count < MAX_PROGRAMS)
                known_before[known_before_count++] = id;
            continue;
        }
        if (was_known(id))
            continue;
        int fd = bpf_prog_get_fd_by_id(id);
        if (fd < 0)
            continue; /* unloaded meanwhile */
        struct bpf_prog_info info;
        __u32 length = sizeof info;
        memset(&info, 0, sizeof info);
        if (bpf_obj_get_info_by_fd(fd, &info, &length) == 0) {
            struct sample *s = sample_of(id);
            if (s) {
                s->type = info.type;
                memcpy(s->name, info.name, sizeof s->name);
                s->runs = info.run_cnt;
                s->ns = info.run_time_ns;
                s->xlated_insns = info.xlated_prog_len / 8;
                s->jited_bytes = info.jited_prog_len;
            }
        }
        close(fd);
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: bpf_prog_stats MIN_RUNS COMMAND [ARG...]\n");
        return 2;
    }
    const unsigned long long min_runs = strtoull(argv[1], NULL, 10);
    int stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
    if (stats_fd < 0) {
        fprintf(stderr, "bpf_prog_stats: cannot enable BPF statistics: %s\n", strerror(errno));
        return 1;
    }
    visit_programs(1);
    pid_t child = fork();
    if (child < 0) {
        perror("bpf_prog_stats: fork");
        return 1;
    }
    if (child == 0) {
        execvp(argv[2], argv + 2);
        fprintf(stderr, "bpf_prog_stats: cannot run %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    int status = 0;
    const struct timespec period = {0, 10 * 1000 * 1000};
    while (waitpid(child, &status, WNOHANG) == 0) {
        visit_programs(0);
        nanosleep(&period, NULL);
    }
    for (size_t i = 0; i < sample_count; i++) {
        const struct sample *s = &samples[i];
        if (s->runs < min_runs || s->runs == 0)
            continue;
        printf("%u %u %s %llu %.1f %u %u\n", s->id, s->type, s->name, (unsigned long long)s->runs,
               (double)s->ns / (double)s->runs, s->xlated_insns, s->jited_bytes);
    }
    close(stats_fd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
