/* usdt_workload.c: a program with USDT probes made by this build's dtrace -h
 * (usdt_demo.h) and linked with its dtrace -G object, for the live USDT
 * tests (check_usdt.sh). Every count is known:
 *
 *   usdt_workload requests N   N request-start and request-done (paths
 *                              "/req/<i>" built in one reused buffer, so a
 *                              string read after the event would be wrong),
 *                              N many(i .. i+7), N located(&{i, 2i}, i)
 *                              (a struct pointer), one tick; prints how many
 *                              times request-start was enabled
 *   usdt_workload watch MS     for MS milliseconds, fires tick every 10 ms
 *                              and watches its semaphore; prints whether it
 *                              was seen set, and whether it was clear again
 *                              at the end
 *   usdt_workload dlopen LIB N fires tick once, loads LIB (usdt_dlopen_lib.c),
 *                              says whether its tick is enabled right after
 *                              dlopen, waits up to 3 s for it to be, fires
 *                              it N times and says whether it was enabled
 */
#include "usdt_demo.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* What demo:::located points to (usdt_demo.d declares it for D). */
struct demo_point {
    int x, y;
};

static int requests(int n) {
    char path[32];
    struct demo_point point;
    int enabled = 0;
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "/req/%d", i);
        if (DEMO_REQUEST_START_ENABLED())
            enabled++;
        DEMO_REQUEST_START(path, i);
        DEMO_REQUEST_DONE(path, i, 200L + i);
        DEMO_MANY(i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7);
        point.x = i;
        point.y = 2 * i;
        DEMO_LOCATED(&point, i);
        memset(path, 'x', sizeof path - 1);
    }
    DEMO_TICK();
    printf("enabled %d\n", enabled);
    return 0;
}

static int watch(int milliseconds) {
    const struct timespec pause = {0, 10 * 1000 * 1000};
    int seen = 0, last = 0;
    for (int t = 0; t < milliseconds; t += 10) {
        last = DEMO_TICK_ENABLED() ? 1 : 0;
        seen |= last;
        DEMO_TICK();
        nanosleep(&pause, NULL);
    }
    printf("seen-enabled=%d restored=%d\n", seen, seen && !last);
    return 0;
}

static int load_and_fire(const char *library, int n) {
    DEMO_TICK();
    void *handle = dlopen(library, RTLD_NOW);
    if (!handle) {
        fprintf(stderr, "%s\n", dlerror());
        return 1;
    }
    int (*enabled)(void) = (int (*)(void))dlsym(handle, "usdt_lib_tick_enabled");
    void (*fire)(int) = (void (*)(int))dlsym(handle, "usdt_lib_fire");
    if (!enabled || !fire)
        return 1;
    /* Enabled as soon as dlopen returns when the tracer saw the library load. */
    printf("lib-enabled-at-load=%d\n", enabled());
    const struct timespec pause = {0, 10 * 1000 * 1000};
    int waited = 0;
    while (!enabled() && waited < 3000) {
        nanosleep(&pause, NULL);
        waited += 10;
    }
    printf("lib-enabled=%d\n", enabled());
    fire(n);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "requests") == 0)
        return requests(atoi(argv[2]));
    if (argc == 3 && strcmp(argv[1], "watch") == 0)
        return watch(atoi(argv[2]));
    if (argc == 4 && strcmp(argv[1], "dlopen") == 0)
        return load_and_fire(argv[2], atoi(argv[3]));
    fprintf(stderr, "usage: usdt_workload requests N | watch MS | dlopen LIB N\n");
    return 2;
}
