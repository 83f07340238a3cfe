/*
 * net_workload.c: known loopback traffic for the per-packet ip, tcp and udp
 * probes (check_net.sh), on a port the test names so that its predicates
 * pick these packets out of the machine's:
 *   tcp PORT N        a server on 127.0.0.1:PORT and a client in this
 *                     process: N exchanges of a 100-byte request and a
 *                     50-byte reply, then the client closes, the server
 *                     reads the end and closes (no reset)
 *   udp PORT N SIZE   N datagrams of SIZE bytes to a socket bound to
 *                     127.0.0.1:PORT, each received
 * Each waits 100 ms before exiting, so that the last packets are handled.
 * Exit 0: done; 1: a socket call failed (saying which); 2: bad usage.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { kRequest = 100, kReply = 50 };

static int failed(const char *what) {
    perror(what);
    return 1;
}

static void settle(void) {
    struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);
}

static struct sockaddr_in loopback(int port) {
    struct sockaddr_in address = {
        .sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    return address;
}

/* Reads exactly n bytes (a stream may split them). */
static int read_all(int fd, char *buffer, int n) {
    for (int got = 0; got < n;) {
        ssize_t r = recv(fd, buffer + got, (size_t)(n - got), 0);
        if (r <= 0)
            return -1;
        got += (int)r;
    }
    return 0;
}

static int tcp(int port, int n) {
    struct sockaddr_in address = loopback(port);
    int server = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(server, (struct sockaddr *)&address, sizeof address) != 0 || listen(server, 1) != 0)
        return failed("bind/listen");
    int client = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(client, (struct sockaddr *)&address, sizeof address) != 0)
        return failed("connect");
    int accepted = accept(server, NULL, NULL);
    if (accepted < 0)
        return failed("accept");
    char buffer[kRequest] = {0};
    for (int i = 0; i < n; i++) {
        if (send(client, buffer, kRequest, 0) != kRequest || read_all(accepted, buffer, kRequest) != 0 ||
            send(accepted, buffer, kReply, 0) != kReply || read_all(client, buffer, kReply) != 0)
            return failed("exchange");
    }
    close(client);
    if (recv(accepted, buffer, 1, 0) != 0)
        return failed("the client's end");
    close(accepted);
    close(server);
    settle();
    return 0;
}

static int udp(int port, int n, int size) {
    struct sockaddr_in address = loopback(port);
    int receiver = socket(AF_INET, SOCK_DGRAM, 0);
    if (bind(receiver, (struct sockaddr *)&address, sizeof address) != 0)
        return failed("bind");
    int sender = socket(AF_INET, SOCK_DGRAM, 0);
    char *data = calloc(1, (size_t)size);
    for (int i = 0; i < n; i++) {
        if (sendto(sender, data, (size_t)size, 0, (struct sockaddr *)&address, sizeof address) != size ||
            recv(receiver, data, (size_t)size, 0) != size)
            return failed("datagram");
    }
    close(sender);
    close(receiver);
    free(data);
    settle();
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "tcp") == 0)
        return tcp(atoi(argv[2]), atoi(argv[3]));
    if (argc == 5 && strcmp(argv[1], "udp") == 0 && atoi(argv[4]) > 0 && atoi(argv[4]) <= 60000)
        return udp(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
    fprintf(stderr, "usage: %s tcp PORT N | udp PORT N SIZE\n", argv[0]);
    return 2;
}
