/* ustack_target.c: the target of the live checks of ustack() keys in
 * the kernel at pid probes (check_pid.sh, fastpath_ustack). leaf() is
 * called N times from main's loop, stacks the kernel's walk of the user
 * stack takes, and N times from a signal handler, whose stacks cross a
 * signal frame (__restore_rt's CFI is a DWARF expression): the walk sends
 * those events back to user space, where every clause runs for them.
 *
 *   ustack_target N
 */
#include <signal.h>
#include <stdlib.h>

static volatile int sink;

__attribute__((noinline)) int leaf(int x) {
    sink += x;
    __asm__ volatile("" ::: "memory"); /* no tail call, no inlining into the callers */
    return sink;
}

__attribute__((noinline)) static void call_directly(int n) {
    for (int i = 0; i < n; i++)
        leaf(i);
    __asm__ volatile("" ::: "memory");
}

static void on_signal(int signal) {
    leaf(signal);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void call_from_signals(int n) {
    for (int i = 0; i < n; i++)
        raise(SIGUSR1);
    __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 10;
    signal(SIGUSR1, on_signal);
    call_directly(n);
    call_from_signals(n);
    return 0;
}
