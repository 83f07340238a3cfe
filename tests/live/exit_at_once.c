/*
 * exit_at_once.c: writes one line through two functions of known names and
 * exits at once, before dtrace drains its events: its /proc/PID/maps is gone
 * when its ustack() is unwound (check_syscall.sh, case ustack_exit). Built
 * with frame pointers and without inlining, so that its frames are its
 * functions.
 */
#include <unistd.h>

__attribute__((noinline)) void exit_at_once_write(void) {
    (void)!write(STDOUT_FILENO, "exit_at_once\n", 13);
}

__attribute__((noinline)) void exit_at_once_caller(void) {
    exit_at_once_write();
}

int main(void) {
    exit_at_once_caller();
    return 0;
}
