/*
 * agent.h: what the parts of the fpid agent (libdtrace-fpid-agent.so, loaded
 * into the traced process) share. The agent is C so that it brings no C++
 * runtime into the programs it is loaded into.
 *
 *   agent.c     load (constructor), the watcher thread, detach, fork
 *   patcher.c   trampolines near each function, patching and unpatching
 *   hits.c      what runs at each hit: records into the thread's ring
 *   unwind.c    the guards on the unwinder that keep exceptions working
 *               through return hooks
 *   link_map.c  libraries loaded (dlopen) and unloaded while traced
 */
#ifndef DTRACE_FPID_AGENT_H
#define DTRACE_FPID_AGENT_H

#include "fpid_shm.h"

#include <stddef.h>
#include <stdint.h>

#define FPID_SHADOW_DEPTH 512u

/* One return hooked on a thread: where its return address was and what it was. */
struct fpid_shadow_entry {
    uint64_t return_address;
    uint64_t slot; /* the stack address that held it */
    uint32_t hook;
    uint32_t restored; /* 1: the slot holds return_address again while an exception unwinds */
};

/* A traced thread's state (agent-private memory, one per ring). */
struct fpid_thread {
    struct fpid_ring *ring; /* NULL: no ring left for this thread */
    uint8_t *data;
    uint64_t head;       /* bytes written (the ring's head, kept here too) */
    uint64_t tail_seen;  /* the reader's tail when last looked at */
    uint64_t ring_bytes; /* the ring's size (0 without a ring: no hit takes the short path) */
    uint64_t stack_top;  /* frame pointers above it are not followed */
    uint32_t shadow_depth;
    struct fpid_shadow_entry shadow[FPID_SHADOW_DEPTH];
};

/* What a hit needs of a hook, copied from the table when it is patched. */
struct fpid_hook_info {
    uint64_t address;
    uint64_t header; /* its entry records' first 8 bytes (struct fpid_record without frames) */
    uint32_t flags;
    uint32_t record_bytes; /* its records' size without frames, worked out once rather than at each hit */
    uint32_t short_path;   /* 1: a hit only appends a record of record_bytes (no stack, no return, no vtimestamp) */
    uint32_t reserved;
};

extern struct fpid_hook_info fpid_hooks[FPID_MAX_HOOKS];

static inline void fpid_hook_info_set(struct fpid_hook_info *info, uint64_t address, uint32_t flags) {
    const uint32_t parts = flags & FPID_RECORD_PARTS;
    const union {
        struct fpid_record record;
        uint64_t word;
    } header = {{(uint32_t)(info - fpid_hooks), FPID_RECORD_ENTRY, (uint8_t)parts, 0}};
    info->address = address;
    info->header = header.word;
    info->flags = flags;
    info->record_bytes = fpid_record_size(parts, 0);
    info->short_path =
        (flags & (FPID_HOOK_ENTRY | FPID_HOOK_RETURN | FPID_HOOK_STACK | FPID_HOOK_VTIME)) == FPID_HOOK_ENTRY;
}

extern struct fpid_shm *fpid_shm;
extern volatile int fpid_active;        /* 0 after detach and in a forked child */
extern uint64_t fpid_return_trampoline; /* where hooked returns go */

/* What a trampoline calls: the saved registers (hits.c) and its argument. */
typedef void (*fpid_handler)(uint64_t *regs, uint32_t argument);

/* hits.c: called from the trampolines. */
void fpid_on_entry(uint64_t *regs, uint32_t hook);
/* Called at the entry of the unwinder's functions (FPID_UNWIND_*): see hits.c. */
#define FPID_UNWIND_START 0u /* an exception or forced unwind starts or goes on */
#define FPID_UNWIND_CATCH 1u /* a handler caught it (__cxa_begin_catch) */
void fpid_on_unwind(uint64_t *regs, uint32_t what);
uint64_t fpid_on_return(uint64_t *saved);
/* The thread states, one per ring slot, mapped at load. */
int fpid_threads_init(void);

/* patcher.c */
int fpid_make_return_trampoline(void);
/* Patches hook `index` of the table; 0, or -1 with its status REFUSED and `why`. */
int fpid_patch(uint32_t index, char *why, size_t why_size);
/* Hooks the function at `address` (`size` bytes, planned from its live
 * bytes) for the agent itself: its trampoline calls handler(regs, argument).
 * 0, or -1 when it cannot be hooked. */
int fpid_patch_guard(uint64_t address, uint64_t size, fpid_handler handler, uint32_t argument);
/* unwind.c: hooks the unwinder's functions with fpid_on_unwind. */
void fpid_guard_unwinder(void);
/* Restores the original bytes of every patched hook (trampolines stay mapped). */
void fpid_unpatch_all(void);
/* Hook `index`'s code is gone (its library was unloaded): nothing to restore. */
void fpid_forget(uint32_t index);
/* Held around patching and unpatching once the watcher runs (and across fork). */
void fpid_patcher_lock(void);
void fpid_patcher_unlock(void);
/* link_map.c: hooks the dynamic linker's link-map function (fpid_shm.link_map_hook); 0, or -1. */
int fpid_follow_link_map(void);

#endif
