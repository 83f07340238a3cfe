/*
 * sdt_workload.c: a workload of known kernel events for the sdt plugin's
 * live tests (check_sdt.sh), one mode per test:
 *   sleep N          sleeps N times (1 ms each): N off-cpu/on-cpu pairs
 *   cpu MS           burns about MS ms of CPU between 20 short sleeps, then
 *                    prints "rusage <ns>": its user + system time
 *   direct PATH N    N direct (O_DIRECT) 4096-byte writes to PATH, synced
 *   exit CODE        exits with CODE
 *   kill             is killed by SIGKILL
 *   signal           sends itself SIGUSR1 and handles it
 *   tcp N            a loopback TCP connection: the client sends N bytes,
 *                    the server reads them and sends them back, both close
 *   udp N            one N-byte UDP datagram over loopback
 *   contend N        4 threads append N small writes each to one file: the
 *                    kernel's inode lock is contended (lockstat)
 *   pingpong N       a parent and a child pass a byte back and forth N times
 *                    over two pipes (2N context switches on one CPU), then
 *                    print "elapsed <ns>" (the benchmark's workload)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static double now_ms(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cpu(long ms) {
    volatile unsigned long sink = 0;
    for (int round = 0; round < 20; round++) {
        double until = now_ms(CLOCK_THREAD_CPUTIME_ID) + ms / 20.0;
        while (now_ms(CLOCK_THREAD_CPUTIME_ID) < until)
            for (int i = 0; i < 1000; i++)
                sink += i;
        sleep_ms(1);
    }
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    long long ns = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000000LL +
                   (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1000LL;
    printf("rusage %lld\n", ns);
    return 0;
}

static int direct(const char *path, int n) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT, 0600);
    if (fd < 0) {
        perror(path);
        return 1;
    }
    void *buffer;
    if (posix_memalign(&buffer, 4096, 4096) != 0)
        return 1;
    memset(buffer, 'x', 4096);
    for (int i = 0; i < n; i++) {
        if (pwrite(fd, buffer, 4096, (off_t)i * 4096) != 4096) {
            perror("pwrite");
            return 1;
        }
    }
    fsync(fd);
    close(fd);
    unlink(path);
    free(buffer);
    return 0;
}

static void on_usr1(int sig) {
    (void)sig;
}

static int tcp(int n) {
    int server = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    if (bind(server, (struct sockaddr *)&address, sizeof address) != 0 || listen(server, 1) != 0 ||
        getsockname(server, (struct sockaddr *)&address, &length) != 0)
        return 1;
    int client = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(client, (struct sockaddr *)&address, sizeof address) != 0)
        return 1;
    int accepted = accept(server, NULL, NULL);
    char *data = calloc(1, n);
    if (send(client, data, n, 0) != n)
        return 1;
    for (int got = 0; got < n;) {
        ssize_t r = recv(accepted, data, n - got, 0);
        if (r <= 0)
            return 1;
        got += r;
    }
    close(client);
    close(accepted);
    close(server);
    free(data);
    return 0;
}

static int udp(int n) {
    int receiver = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    if (bind(receiver, (struct sockaddr *)&address, sizeof address) != 0 ||
        getsockname(receiver, (struct sockaddr *)&address, &length) != 0)
        return 1;
    int sender = socket(AF_INET, SOCK_DGRAM, 0);
    char *data = calloc(1, n);
    if (sendto(sender, data, n, 0, (struct sockaddr *)&address, sizeof address) != n || recv(receiver, data, n, 0) != n)
        return 1;
    close(sender);
    close(receiver);
    free(data);
    return 0;
}

struct appender {
    int fd;
    int n;
};

static void *append(void *arg) {
    const struct appender *a = arg;
    char line[64] = "a line of the contended file\n";
    for (int i = 0; i < a->n; i++)
        if (write(a->fd, line, sizeof line) != sizeof line)
            break;
    return NULL;
}

static int contend(int n) {
    char path[] = "/tmp/sdt_contend.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    unlink(path);
    int flags = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, flags | O_APPEND);
    struct appender a = {fd, n};
    pthread_t threads[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&threads[i], NULL, append, &a);
    for (int i = 0; i < 4; i++)
        pthread_join(threads[i], NULL);
    close(fd);
    return 0;
}

static int pingpong(int n) {
    int there[2], back[2];
    if (pipe(there) != 0 || pipe(back) != 0)
        return 1;
    double start = now_ms(CLOCK_MONOTONIC);
    pid_t child = fork();
    if (child < 0)
        return 1;
    char byte = 0;
    for (int i = 0; i < n; i++) {
        if (child == 0) {
            if (read(there[0], &byte, 1) != 1 || write(back[1], &byte, 1) != 1)
                _exit(1);
        } else if (write(there[1], &byte, 1) != 1 || read(back[0], &byte, 1) != 1) {
            return 1;
        }
    }
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0);
    printf("elapsed %.0f\n", (now_ms(CLOCK_MONOTONIC) - start) * 1e6);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr,
                "usage: %s sleep N | cpu MS | direct PATH N | exit CODE | kill | signal | tcp N | udp N | contend N | "
                "pingpong N\n",
                argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    if (strcmp(mode, "sleep") == 0 && argc == 3) {
        for (int i = atoi(argv[2]); i > 0; i--)
            sleep_ms(1);
        return 0;
    }
    if (strcmp(mode, "cpu") == 0 && argc == 3)
        return cpu(atol(argv[2]));
    if (strcmp(mode, "direct") == 0 && argc == 4)
        return direct(argv[2], atoi(argv[3]));
    if (strcmp(mode, "exit") == 0 && argc == 3)
        return atoi(argv[2]);
    if (strcmp(mode, "kill") == 0) {
        raise(SIGKILL);
        return 1;
    }
    if (strcmp(mode, "signal") == 0) {
        signal(SIGUSR1, on_usr1);
        raise(SIGUSR1);
        return 0;
    }
    if (strcmp(mode, "tcp") == 0 && argc == 3)
        return tcp(atoi(argv[2]));
    if (strcmp(mode, "udp") == 0 && argc == 3)
        return udp(atoi(argv[2]));
    if (strcmp(mode, "contend") == 0 && argc == 3)
        return contend(atoi(argv[2]));
    if (strcmp(mode, "pingpong") == 0 && argc == 3)
        return pingpong(atoi(argv[2]));
    fprintf(stderr, "%s: unknown mode %s\n", argv[0], mode);
    return 2;
}
