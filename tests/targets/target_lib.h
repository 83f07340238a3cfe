/*
 * target_lib.h: the functions of libpid_target_lib.so (target_lib.c), which the
 * test targets dlopen and look up by these names.
 */
#ifndef DTRACE_TESTS_TARGETS_TARGET_LIB_H
#define DTRACE_TESTS_TARGETS_TARGET_LIB_H

int lib_helper(int x);
int lib_work(int x);
/* What lib_work(x) calls: lib_helper this many times. */
#define TARGET_LIB_HELPER_CALLS 2

#define TARGET_LIB_NAME "libpid_target_lib.so"

#endif
