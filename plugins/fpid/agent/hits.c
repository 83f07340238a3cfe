/*
 * hits.c: what runs in the traced thread at each hit of a hooked function.
 *
 * Built with -mgeneral-regs-only: the trampolines save only the general
 * registers a call may clobber, so this code must leave the vector registers
 * (floating-point arguments and return values) alone, and it calls nothing
 * of libc (a hooked malloc or memcpy must not re-enter it).
 *
 * An entry hit writes one record (hook, time stamp counter, the thread's CPU
 * time, the six argument registers, and with FPID_HOOK_STACK the
 * frame-pointer chain: each part only when a clause reads it) into the
 * thread's ring, and with FPID_HOOK_RETURN swaps the return address for the
 * return trampoline, keeping the original on the thread's shadow stack.
 */
#include "agent.h"

#include <stddef.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The trampoline's saved registers: regs[0] = rbp ... regs[9] = return address. */
enum { REG_RBP = 0, REG_R9 = 2, REG_R8 = 3, REG_RCX = 4, REG_RDX = 5, REG_RSI = 6, REG_RDI = 7, REG_RETURN = 9 };

extern void *__libc_stack_end;

static __thread struct fpid_thread *current __attribute__((tls_model("initial-exec")));
static struct fpid_thread *threads; /* FPID_MAX_RINGS of them */
static struct fpid_thread no_ring;  /* for threads beyond the last ring */

int fpid_threads_init(void) {
    void *p = mmap(NULL, sizeof(struct fpid_thread) * FPID_MAX_RINGS, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    threads = p;
    return 0;
}

static inline uint64_t read_tsc(void) {
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

/* The calling thread's CPU time in ns (CLOCK_THREAD_CPUTIME_ID), by the
 * system call itself: the vDSO does not serve this clock, and libc's
 * clock_gettime may be hooked. Only hooks whose clauses read vtimestamp pay it. */
static inline uint64_t read_thread_cpu_time(void) {
    struct {
        int64_t tv_sec, tv_nsec;
    } ts = {0, 0};
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "0"((long)SYS_clock_gettime), "D"((long)CLOCK_THREAD_CPUTIME_ID), "S"(&ts)
                     : "rcx", "r11", "memory");
    return ret == 0 ? (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec : 0;
}

/* The top of the stack `sp` is on: glibc puts a thread's descriptor (the fs
 * base) just above its stack; the main thread's stack ends at __libc_stack_end. */
/* The six SysV argument registers, in order, from the trampoline's save area. */
static inline void copy_args(uint64_t *at, const uint64_t *regs) {
    at[0] = regs[REG_RDI];
    at[1] = regs[REG_RSI];
    at[2] = regs[REG_RDX];
    at[3] = regs[REG_RCX];
    at[4] = regs[REG_R8];
    at[5] = regs[REG_R9];
}

static uint64_t stack_top_of(uint64_t sp) {
    uint64_t fs_base;
    __asm__("mov %%fs:0, %0" : "=r"(fs_base));
    if (fs_base > sp && fs_base - sp < (256u << 20))
        return fs_base;
    return (uint64_t)__libc_stack_end;
}

static __attribute__((noinline)) struct fpid_thread *claim(uint64_t sp) {
    uint32_t slot = __atomic_fetch_add(&fpid_shm->rings_claimed, 1, __ATOMIC_RELAXED);
    if (slot >= FPID_MAX_RINGS) {
        __atomic_fetch_add(&fpid_shm->ring_overflow, 1, __ATOMIC_RELAXED);
        current = &no_ring;
        return current;
    }
    struct fpid_thread *t = &threads[slot];
    t->ring = (struct fpid_ring *)((uint8_t *)fpid_shm + fpid_ring_offset(fpid_shm->ring_bytes, slot));
    t->data = (uint8_t *)t->ring + sizeof(struct fpid_ring);
    t->ring_bytes = fpid_shm->ring_bytes;
    t->stack_top = stack_top_of(sp);
    current = t; /* before any call: a hooked libc function must not claim again */
    /* Its pages now rather than one fault per page at the hits (a fault
     * costs what a hundred hits do); a kernel without this (< 5.14) faults them in. */
    uintptr_t first = (uintptr_t)t->ring & ~(uintptr_t)4095;
    madvise((void *)first, (uintptr_t)t->data + fpid_shm->ring_bytes - first, MADV_POPULATE_WRITE);
    t->ring->tid = (int32_t)syscall(SYS_gettid);
    __atomic_store_n(&t->ring->claimed, 1, __ATOMIC_RELEASE);
    return t;
}

/* Room for `size` bytes at the head (after a PAD to the end when they do
 * not fit before it), or NULL when the reader is too far behind. */
static inline struct fpid_record *reserve(struct fpid_thread *t, uint32_t size) {
    const uint64_t ring_bytes = fpid_shm->ring_bytes;
    uint64_t position = t->head & (ring_bytes - 1);
    uint64_t before_end = ring_bytes - position;
    uint64_t need = size + (before_end < size ? before_end : 0);
    if (t->head + need - t->tail_seen > ring_bytes) {
        t->tail_seen = __atomic_load_n(&t->ring->tail, __ATOMIC_ACQUIRE);
        if (t->head + need - t->tail_seen > ring_bytes) {
            t->ring->drops++;
            return NULL;
        }
    }
    if (before_end < size) {
        ((struct fpid_record *)(t->data + position))->kind = FPID_RECORD_PAD;
        t->head += before_end;
        position = 0;
    }
    return (struct fpid_record *)(t->data + position);
}

static inline void commit(struct fpid_thread *t, uint32_t size) {
    t->head += size;
    __atomic_store_n(&t->ring->head, t->head, __ATOMIC_RELEASE);
}

/* Return addresses up the frame-pointer chain from `fp`, the hooked returns
 * among them put back; stops at anything that does not look like a frame. */
static uint32_t walk_frames(struct fpid_thread *t, uint64_t fp, uint64_t low, uint64_t *out, uint32_t room) {
    uint32_t n = 0;
    uint32_t shadow = t->shadow_depth;
    while (n < room && fp >= low && fp + 16 <= t->stack_top && (fp & 7) == 0) {
        uint64_t pc = ((const uint64_t *)fp)[1];
        if (pc == 0)
            break;
        if (pc == fpid_return_trampoline) {
            while (shadow > 0 && t->shadow[shadow - 1].restored)
                shadow--;
            if (shadow > 0)
                pc = t->shadow[--shadow].return_address;
        }
        out[n++] = pc;
        uint64_t next = ((const uint64_t *)fp)[0];
        if (next <= fp)
            break;
        fp = next;
    }
    return n;
}

/* A hit that takes the short path's record cannot, or a hook that needs more. */
static __attribute__((noinline)) void on_entry(uint64_t *regs, uint32_t hook) {
    if (!fpid_active)
        return;
    struct fpid_thread *t = current;
    if (__builtin_expect(t == NULL, 0))
        t = claim((uint64_t)regs);
    if (__builtin_expect(t->ring == NULL, 0))
        return;
    const struct fpid_hook_info *h = &fpid_hooks[hook];
    if (h->flags & FPID_HOOK_ENTRY) {
        const uint32_t parts = h->flags & FPID_RECORD_PARTS;
        const uint32_t frames_room = (h->flags & FPID_HOOK_STACK) ? fpid_shm->stack_frames : 0;
        struct fpid_record *r = reserve(t, h->record_bytes + 8u * frames_room);
        if (r != NULL) {
            r->hook = hook;
            r->kind = FPID_RECORD_ENTRY;
            r->flags = (uint8_t)parts;
            uint64_t *at = (uint64_t *)(r + 1);
            if (parts & FPID_HOOK_TIME)
                *at++ = read_tsc();
            if (parts & FPID_HOOK_VTIME)
                *at++ = read_thread_cpu_time();
            if (parts & FPID_HOOK_ARGS) {
                copy_args(at, regs);
                at += FPID_MAX_ARGS;
            }
            uint32_t nframes = 0;
            if (frames_room >= 2) {
                at[0] = h->address;
                at[1] = regs[REG_RETURN];
                nframes = 2 + walk_frames(t, regs[REG_RBP], (uint64_t)&regs[REG_RETURN + 1], at + 2, frames_room - 2);
            }
            r->nframes = (uint16_t)nframes;
            commit(t, h->record_bytes + 8u * nframes);
        }
    }
    if ((h->flags & FPID_HOOK_RETURN) && t->shadow_depth < FPID_SHADOW_DEPTH) {
        struct fpid_shadow_entry *e = &t->shadow[t->shadow_depth++];
        e->return_address = regs[REG_RETURN];
        e->slot = (uint64_t)&regs[REG_RETURN];
        e->hook = hook;
        e->restored = 0;
        regs[REG_RETURN] = fpid_return_trampoline;
    }
}

/* The short path, the common case (a hook that records no stack, no return
 * and no vtimestamp, its record fitting before the ring's end with the
 * reader not behind): one record appended, in a few instructions and no
 * saved registers; anything else goes the long way. */
void fpid_on_entry(uint64_t *regs, uint32_t hook) {
    const struct fpid_hook_info *h = &fpid_hooks[hook];
    struct fpid_thread *t = current;
    if (__builtin_expect(h->short_path && t != NULL && fpid_active, 1)) {
        const uint64_t head = t->head, size = h->record_bytes;
        const uint64_t position = head & (t->ring_bytes - 1);
        if (__builtin_expect(position + size <= t->ring_bytes && head + size - t->tail_seen <= t->ring_bytes, 1)) {
            uint64_t *at = (uint64_t *)(t->data + position);
            *at++ = h->header;
            if (h->flags & FPID_HOOK_TIME)
                *at++ = read_tsc();
            if (h->flags & FPID_HOOK_ARGS) {
                copy_args(at, regs);
            }
            t->head = head + size;
            __atomic_store_n(&t->ring->head, head + size, __ATOMIC_RELEASE);
            return;
        }
    }
    on_entry(regs, hook);
}

/* saved[0] = rdx, saved[1] = rax, saved[2] = the slot of the return address. */
uint64_t fpid_on_return(uint64_t *saved) {
    struct fpid_thread *t = current;
    const uint64_t slot = (uint64_t)&saved[2];
    /* Entries of frames a longjmp or an exception left are deeper than this
     * one; so are those whose return an exception restored and that then
     * returned normally. */
    while (t->shadow_depth > 0 &&
           (t->shadow[t->shadow_depth - 1].slot < slot || t->shadow[t->shadow_depth - 1].restored))
        t->shadow_depth--;
    if (t->shadow_depth == 0)
        __builtin_trap(); /* a return the agent did not hook: nowhere to go */
    const struct fpid_shadow_entry e = t->shadow[--t->shadow_depth];
    if (fpid_active) {
        const struct fpid_hook_info *h = &fpid_hooks[e.hook];
        const uint32_t parts = h->flags & FPID_RECORD_PARTS;
        struct fpid_record *r = reserve(t, h->record_bytes);
        if (r != NULL) {
            r->hook = e.hook;
            r->kind = FPID_RECORD_RETURN;
            r->flags = (uint8_t)parts;
            r->nframes = 0;
            uint64_t *at = (uint64_t *)(r + 1);
            if (parts & FPID_HOOK_TIME)
                *at++ = read_tsc();
            if (parts & FPID_HOOK_VTIME)
                *at++ = read_thread_cpu_time();
            if (parts & FPID_HOOK_ARGS) {
                at[0] = 0;
                at[1] = saved[1];
                for (uint32_t i = 2; i < FPID_MAX_ARGS; i++)
                    at[i] = 0;
            }
            commit(t, h->record_bytes);
        }
    }
    return e.return_address;
}

/* An exception (or a forced unwind: pthread_cancel) starts or goes on: the
 * unwinder reads return addresses to find each frame's unwind information,
 * and the return trampoline has none (it would end the search, and the C++
 * runtime would terminate the program). So every hooked return above this
 * frame gets its own return address back, marked restored. When a handler
 * catches (__cxa_begin_catch, in the catching frame), the frames above it
 * are still there: their returns are hooked again; the entries of frames the
 * exception left are dropped. A frame the exception leaves fires no return
 * probe (it did not return), as with the pid provider. */
void fpid_on_unwind(uint64_t *regs, uint32_t what) {
    struct fpid_thread *t = current;
    if (t == NULL || t->ring == NULL)
        return; /* no hooked return on this thread */
    const uint64_t sp = (uint64_t)&regs[REG_RETURN];
    while (t->shadow_depth > 0 && t->shadow[t->shadow_depth - 1].slot < sp)
        t->shadow_depth--; /* frames already left */
    for (uint32_t i = 0; i < t->shadow_depth; i++) {
        struct fpid_shadow_entry *e = &t->shadow[i];
        uint64_t *slot = (uint64_t *)e->slot;
        if (what == FPID_UNWIND_START && !e->restored && *slot == fpid_return_trampoline) {
            *slot = e->return_address;
            e->restored = 1;
        } else if (what == FPID_UNWIND_CATCH && e->restored && *slot == e->return_address) {
            *slot = fpid_return_trampoline;
            e->restored = 0;
        }
    }
}
