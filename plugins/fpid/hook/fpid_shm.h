/*
 * fpid_shm.h: the shared memory between dtrace's fpid plugin and the agent in
 * the traced process. Plain C: the agent is C, injected into any program.
 *
 * One file per traced process, /dev/shm/dtrace-fpid.<target pid>, created by
 * dtrace (which refuses a second session on the same process) and mapped by
 * the agent, which finds it by its own pid. Layout:
 *
 *   struct fpid_shm                     the control block and the hook table
 *   FPID_MAX_RINGS x (fpid_ring + ring_bytes)   one ring per traced thread
 *
 * dtrace fills the hook table (absolute addresses it resolved, how many
 * bytes each hook displaces) and sets state READY before the agent reads it:
 * -c: before the process runs its first instruction; -p: before the agent is
 * injected. The agent answers with agent_state and, per hook, status. To
 * detach, dtrace sets state DETACH; the agent's watcher thread restores the
 * original bytes and sets agent_state UNHOOKED (it does the same when dtrace
 * dies, watched through a pidfd).
 *
 * Libraries loaded or unloaded later (agent/link_map.c): the agent hooks the
 * dynamic linker's link-map function (link_map_hook, planned by dtrace) and,
 * after each change of the library list, bumps link_map_requests and waits
 * (a futex on link_map_answers) while dtrace appends hooks in the new
 * libraries (status PENDING) and marks those of libraries gone (UNMAPPED);
 * dtrace then sets link_map_answers to the request it answered, and the
 * agent patches the PENDING hooks and forgets the UNMAPPED ones.
 *
 * Each traced thread claims a ring at its first hit and writes records into
 * it (single writer: the thread; single reader: dtrace's drain thread). A
 * record never wraps: when it does not fit before the end, the writer puts a
 * FPID_RECORD_PAD record there and starts again at 0.
 */
#ifndef DTRACE_FPID_SHM_H
#define DTRACE_FPID_SHM_H

#include <stdint.h>

#define FPID_SHM_MAGIC 0x64697066u /* "fpid" */
#define FPID_SHM_VERSION 3u
#define FPID_SHM_PREFIX "/dtrace-fpid."
#define FPID_MAX_HOOKS 8192u
#define FPID_MAX_RINGS 64u
#define FPID_MAX_FRAMES 64u
#define FPID_MAX_ARGS 6u
#define FPID_MAX_PATCH 32u /* bytes a hook may displace */

/* fpid_shm.state (dtrace's) */
#define FPID_STATE_PREPARING 0u
#define FPID_STATE_READY 1u
#define FPID_STATE_DETACH 2u

/* fpid_shm.agent_state */
#define FPID_AGENT_ABSENT 0u
#define FPID_AGENT_HOOKED 1u   /* every hook of the table patched (or failed, see status) */
#define FPID_AGENT_FAILED 2u   /* nothing patched: agent_error says why */
#define FPID_AGENT_UNHOOKED 3u /* original bytes restored; rings no longer written */

/* fpid_hook.flags: what a hit records (only what the probes' clauses read) */
#define FPID_HOOK_ENTRY 0x1u
#define FPID_HOOK_RETURN 0x2u
#define FPID_HOOK_STACK 0x4u  /* walk the frame pointers at each entry */
#define FPID_HOOK_TIME 0x8u   /* the time stamp counter */
#define FPID_HOOK_ARGS 0x10u  /* the argument registers (entry), the return value (return) */
#define FPID_HOOK_VTIME 0x20u /* the thread's CPU time (vtimestamp): a system call per hit */

/* The parts of a record a hook's flags ask for. */
#define FPID_RECORD_PARTS (FPID_HOOK_TIME | FPID_HOOK_VTIME | FPID_HOOK_ARGS)

/* fpid_hook.status (the agent's) */
#define FPID_HOOK_PENDING 0u
#define FPID_HOOK_PATCHED 1u
#define FPID_HOOK_REFUSED 2u
#define FPID_HOOK_UNMAPPED 3u /* set by dtrace: its library was unloaded, nothing to restore */

struct fpid_hook {
    uint64_t address;      /* the function's first byte in the target */
    uint32_t flags;        /* FPID_HOOK_* */
    uint32_t patch_length; /* bytes the jump displaces, as dtrace planned them */
    uint32_t status;       /* FPID_HOOK_* status, written by the agent */
    uint32_t reserved;
};

#define FPID_RECORD_ENTRY 1u
#define FPID_RECORD_RETURN 2u
#define FPID_RECORD_PAD 3u

/* A record: this header, then (with FPID_HOOK_TIME) the time stamp counter,
 * (with FPID_HOOK_VTIME) the thread's CPU time in ns, (with FPID_HOOK_ARGS)
 * FPID_MAX_ARGS words: at entry the six argument
 * registers, at return 0 and the return value (arg0, arg1), then nframes
 * program counters, innermost first: fpid_record_size() bytes. A PAD record
 * runs to the end of the ring. */
struct fpid_record {
    uint32_t hook; /* index in the hook table */
    uint8_t kind;  /* FPID_RECORD_* */
    uint8_t flags; /* FPID_HOOK_TIME | FPID_HOOK_VTIME | FPID_HOOK_ARGS: which parts follow */
    uint16_t nframes;
};

static inline uint32_t fpid_record_size(uint32_t flags, uint32_t nframes) {
    return (uint32_t)sizeof(struct fpid_record) + ((flags & FPID_HOOK_TIME) ? 8u : 0u) +
           ((flags & FPID_HOOK_VTIME) ? 8u : 0u) + ((flags & FPID_HOOK_ARGS) ? 8u * FPID_MAX_ARGS : 0u) + 8u * nframes;
}

struct fpid_ring {
    /* The writer's line. */
    uint64_t head;    /* bytes written, ever (position = head % ring_bytes) */
    uint64_t drops;   /* records that did not fit */
    int32_t tid;      /* the thread that claimed the ring */
    uint32_t claimed; /* 1 once claimed */
    uint8_t writer_pad[40];
    /* The reader's line. */
    uint64_t tail; /* bytes consumed, ever */
    uint8_t reader_pad[56];
    /* then ring_bytes of records */
};

struct fpid_shm {
    uint32_t magic;
    uint32_t version;
    uint32_t state;       /* FPID_STATE_*, dtrace's */
    uint32_t agent_state; /* FPID_AGENT_*, the agent's */
    int32_t dtrace_pid;
    int32_t target_pid;
    uint32_t nhooks;
    uint32_t ring_bytes; /* per ring, a power of two */
    uint32_t rings_claimed;
    uint32_t ring_overflow; /* hits of threads beyond FPID_MAX_RINGS */
    uint32_t stack_frames;  /* at most this many frames per stack */
    uint32_t reserved;
    uint64_t link_map_hook;         /* the dynamic linker's _dl_debug_state in the target; 0: not followed */
    uint32_t link_map_patch_length; /* bytes its hook displaces, as dtrace planned them */
    uint32_t link_map_requests;     /* the agent's: changes of the library list it asked about */
    uint32_t link_map_answers;      /* dtrace's: the last request whose hooks the table holds */
    uint32_t link_map_reserved;
    char agent_error[256];
    struct fpid_hook hooks[FPID_MAX_HOOKS];
};

/* Where the ring of slot `index` starts in the file (its records follow its header). */
static inline uint64_t fpid_ring_offset(uint32_t ring_bytes, uint32_t index) {
    uint64_t base = (sizeof(struct fpid_shm) + 4095u) & ~(uint64_t)4095u;
    return base + (uint64_t)index * (sizeof(struct fpid_ring) + ring_bytes);
}

static inline uint64_t fpid_shm_size(uint32_t ring_bytes) {
    uint64_t base = (sizeof(struct fpid_shm) + 4095u) & ~(uint64_t)4095u;
    return base + (uint64_t)FPID_MAX_RINGS * (sizeof(struct fpid_ring) + ring_bytes);
}

#endif
