/*
 * target_ctor_lib.h: libpid_target_ctor_lib.so (target_ctor_lib.c), linked
 * into pid_target_ctor: its constructor dlopens libpid_target_lib.so before
 * the program's entry point, as a plugin loader's library might.
 */
#ifndef DTRACE_TESTS_TARGETS_TARGET_CTOR_LIB_H
#define DTRACE_TESTS_TARGETS_TARGET_CTOR_LIB_H

/* Calls libpid_target_lib.so's lib_work `rounds` times; -1 when the
 * constructor could not load it. */
long ctor_lib_work(long rounds);

#endif
