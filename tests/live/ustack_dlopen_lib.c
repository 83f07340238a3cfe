/* ustack_dlopen_lib.c: a library syscall_workload loads with dlopen() while
 * it is traced (its dlopen: step), whose code makes the system calls: the
 * in-kernel walk of a syscall probe's ustack() must name its frames
 * (check_fastpath.sh, ustack) after the process mapped it. */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>

__attribute__((noinline)) void workload_calls(long n) {
    for (long i = 0; i < n; i++)
        syscall(SYS_getppid);
    __asm__ volatile("" ::: "memory"); /* not a tail call: this frame stays on the stack */
}
