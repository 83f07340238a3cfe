/*
 * link_map.c: libraries the traced program loads (dlopen) or unloads
 * (dlclose) while it is traced.
 *
 * The dynamic linker calls _dl_debug_state after each change of its list of
 * libraries, with r_debug.r_state RT_CONSISTENT once the change is done: a
 * library dlopen loads is then mapped, not yet relocated, and none of its
 * code (constructors included) has run; one dlclose unloads is unmapped. The
 * agent hooks that function (dtrace planned the hook: fpid_shm.link_map_hook)
 * and, in the thread that made the change, which holds the linker's lock so
 * that no other change can start, asks dtrace (link_map_requests) and waits
 * for its answer (link_map_answers, a futex): dtrace has then appended the
 * hooks the session's descriptions name in the new libraries (status
 * PENDING) and marked those of libraries gone (UNMAPPED). The agent patches
 * the first and forgets the second before dlopen (dlclose) returns, so
 * counts in a library loaded later are exact, and no original bytes are ever
 * written back where another library may now be mapped.
 */
#define _GNU_SOURCE
#include "agent.h"

#include <errno.h>
#include <link.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* How long a dlopen waits for dtrace before going on without its hooks. */
#define ANSWER_SECONDS 10
#define WAIT_SLICE_NANOSECONDS (10 * 1000 * 1000)

static int answered(uint32_t request) {
    return (int32_t)(__atomic_load_n(&fpid_shm->link_map_answers, __ATOMIC_ACQUIRE) - request) >= 0;
}

/* Waits for dtrace's answer to `request`: 1, or 0 when dtrace detaches, dies or takes too long. */
static int wait_for_answer(uint32_t request) {
    for (long waited = 0; waited < ANSWER_SECONDS * 1000000000L; waited += WAIT_SLICE_NANOSECONDS) {
        uint32_t seen = __atomic_load_n(&fpid_shm->link_map_answers, __ATOMIC_ACQUIRE);
        if (answered(request))
            return 1;
        if (!fpid_active || __atomic_load_n(&fpid_shm->state, __ATOMIC_ACQUIRE) == FPID_STATE_DETACH ||
            (kill(fpid_shm->dtrace_pid, 0) != 0 && errno == ESRCH))
            return 0;
        /* Shared (not private): dtrace wakes it through its own mapping of the file. */
        struct timespec slice = {0, WAIT_SLICE_NANOSECONDS};
        syscall(SYS_futex, &fpid_shm->link_map_answers, FUTEX_WAIT, seen, &slice, NULL, 0);
    }
    return 0;
}

/* Patches the hooks dtrace added and forgets those of libraries gone. */
static void update_hooks(void) {
    fpid_patcher_lock();
    if (fpid_active) {
        char why[200];
        const uint32_t nhooks = __atomic_load_n(&fpid_shm->nhooks, __ATOMIC_ACQUIRE);
        for (uint32_t i = 0; i < nhooks && i < FPID_MAX_HOOKS; i++) {
            if (fpid_shm->hooks[i].status == FPID_HOOK_UNMAPPED) {
                fpid_forget(i);
            } else if (fpid_shm->hooks[i].status == FPID_HOOK_PENDING) {
                fpid_forget(i); /* placed again after its library was unloaded: the old bytes are gone */
                if (fpid_patch(i, why, sizeof why) != 0)
                    snprintf(fpid_shm->agent_error, sizeof fpid_shm->agent_error, "%s", why);
            }
        }
    }
    fpid_patcher_unlock();
}

static void on_link_map(uint64_t *regs, uint32_t unused) {
    (void)regs;
    (void)unused;
    if (!fpid_active || _r_debug.r_state != RT_CONSISTENT)
        return;
    const uint32_t request = __atomic_add_fetch(&fpid_shm->link_map_requests, 1, __ATOMIC_ACQ_REL);
    if (wait_for_answer(request))
        update_hooks();
}

int fpid_follow_link_map(void) {
    if (fpid_shm->link_map_hook == 0)
        return 0; /* a static program, or a linker without the function: nothing loads later */
    return fpid_patch_guard(fpid_shm->link_map_hook, fpid_shm->link_map_patch_length, on_link_map, 0);
}
