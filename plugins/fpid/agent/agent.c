/*
 * agent.c: the fpid agent's life in the traced process.
 *
 * Loaded with LD_PRELOAD (dtrace -c) or by a dlopen dtrace injects (-p), its
 * constructor maps /dev/shm/dtrace-fpid.<own pid>; without one (a child of
 * the traced program inherits LD_PRELOAD) it does nothing. Otherwise it
 * patches every hook of the table, says how that went in agent_state, and
 * starts a watcher thread that unhooks when dtrace asks (state DETACH) or
 * dies (its pidfd becomes readable); libraries loaded later are followed
 * (link_map.c). A forked child stops recording and unhooks its copy of the
 * code: the rings belong to the parent's threads.
 */
#define _GNU_SOURCE
#include "agent.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WATCH_MILLISECONDS 20

struct fpid_shm *fpid_shm;
struct fpid_hook_info fpid_hooks[FPID_MAX_HOOKS];
volatile int fpid_active;
uint64_t fpid_return_trampoline;

static void fail(const char *why) {
    snprintf(fpid_shm->agent_error, sizeof fpid_shm->agent_error, "%s", why);
    __atomic_store_n(&fpid_shm->agent_state, FPID_AGENT_FAILED, __ATOMIC_RELEASE);
}

static void detach(void) {
    fpid_patcher_lock();
    fpid_active = 0;
    fpid_unpatch_all();
    fpid_patcher_unlock();
    __atomic_store_n(&fpid_shm->agent_state, FPID_AGENT_UNHOOKED, __ATOMIC_RELEASE);
}

static int dtrace_gone(int pidfd) {
    if (pidfd < 0)
        return kill(fpid_shm->dtrace_pid, 0) != 0;
    struct pollfd p = {pidfd, POLLIN, 0};
    return poll(&p, 1, 0) > 0;
}

static void *watch(void *arg) {
    int pidfd = (int)(intptr_t)arg;
    while (__atomic_load_n(&fpid_shm->state, __ATOMIC_ACQUIRE) != FPID_STATE_DETACH && !dtrace_gone(pidfd))
        usleep(WATCH_MILLISECONDS * 1000);
    detach();
    if (pidfd >= 0)
        close(pidfd);
    return NULL;
}

/* Around fork: no thread is patching while the code is copied. */
static void in_child(void) {
    fpid_active = 0;
    fpid_unpatch_all();
    fpid_patcher_unlock();
}

static struct fpid_shm *map_shared(void) {
    char name[64];
    snprintf(name, sizeof name, "/dev/shm" FPID_SHM_PREFIX "%d", (int)getpid());
    int fd = open(name, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    void *p = MAP_FAILED;
    if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(struct fpid_shm))
        p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return NULL;
    struct fpid_shm *shm = p;
    if (shm->magic != FPID_SHM_MAGIC || shm->version != FPID_SHM_VERSION ||
        fpid_shm_size(shm->ring_bytes) > (uint64_t)st.st_size) {
        munmap(p, (size_t)st.st_size);
        return NULL;
    }
    return shm;
}

__attribute__((constructor)) static void fpid_agent_load(void) {
    fpid_shm = map_shared();
    if (fpid_shm == NULL)
        return;
    if (__atomic_load_n(&fpid_shm->state, __ATOMIC_ACQUIRE) != FPID_STATE_READY)
        return fail("the hook table was not ready when the agent loaded");
    if (fpid_shm->nhooks > FPID_MAX_HOOKS)
        return fail("the hook table is larger than the agent's");
    if (fpid_threads_init() != 0 || fpid_make_return_trampoline() != 0)
        return fail("cannot map the agent's memory");
    fpid_active = 1;
    char why[200];
    for (uint32_t i = 0; i < fpid_shm->nhooks; i++) {
        if (fpid_patch(i, why, sizeof why) != 0) {
            char message[256];
            snprintf(message, sizeof message, "hook %u: %s", i, why);
            detach();
            return fail(message);
        }
    }
    for (uint32_t i = 0; i < fpid_shm->nhooks; i++) {
        if (fpid_shm->hooks[i].flags & FPID_HOOK_RETURN) {
            fpid_guard_unwinder();
            break;
        }
    }
    if (fpid_follow_link_map() != 0) {
        detach();
        return fail("cannot hook the dynamic linker's _dl_debug_state (to follow dlopen)");
    }
    pthread_atfork(fpid_patcher_lock, fpid_patcher_unlock, in_child);
    int pidfd = (int)syscall(SYS_pidfd_open, fpid_shm->dtrace_pid, 0);
    pthread_t watcher;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    /* The watcher takes no signal meant for the program. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int created = pthread_create(&watcher, &attr, watch, (void *)(intptr_t)pidfd);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (created != 0) {
        detach();
        return fail("cannot start the agent's watcher thread");
    }
    __atomic_store_n(&fpid_shm->agent_state, FPID_AGENT_HOOKED, __ATOMIC_RELEASE);
}
