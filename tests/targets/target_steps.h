/*
 * target_steps.h: the command line every test target shares. Each argument is
 * one step, run in order (see target_steps.c for the list); a target adds its
 * own steps through `extra`.
 */
#ifndef DTRACE_TESTS_TARGETS_TARGET_STEPS_H
#define DTRACE_TESTS_TARGETS_TARGET_STEPS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Returns 1 when `extra` ran the step, 0 when it does not know it. */
typedef int (*target_extra_step)(const char *arg);

/* Runs argv[1..] as steps; returns the exit status (0, or 2 for a step
 * nobody knows). */
int target_run_steps(int argc, char **argv, target_extra_step extra);

#ifdef __cplusplus
}
#endif

#endif
