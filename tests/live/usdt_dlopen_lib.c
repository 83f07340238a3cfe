/* usdt_dlopen_lib.c: a library with USDT probes of its own (the demo
 * provider, its own semaphores from its own dtrace -G object), loaded by
 * usdt_workload with dlopen, for probes that appear while tracing runs. */
#include "usdt_demo.h"

int usdt_lib_tick_enabled(void) {
    return DEMO_TICK_ENABLED() ? 1 : 0;
}

void usdt_lib_fire(int n) {
    for (int i = 0; i < n; i++)
        DEMO_TICK();
}
