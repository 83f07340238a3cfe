/*
 * target_lib.c: libpid_target_lib.so, the library the test targets dlopen
 * (step dlopen:N), so that probes on a library loaded after tracing started
 * can be tested: lib_work runs N times and calls lib_helper twice each time.
 */
#include "target_lib.h"

__attribute__((noinline, noipa)) int lib_helper(int x) {
    return x * 2;
}

int lib_work(int x) {
    return lib_helper(x) + lib_helper(x + 1);
}
