/*
 * pid_target.c: the C test target of the pid and fpid providers. Its steps
 * (target_steps.c) make calls whose counts are known exactly.
 */
#include "target_steps.h"

int main(int argc, char **argv) {
    return target_run_steps(argc, argv, 0);
}
