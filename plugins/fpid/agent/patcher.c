/*
 * patcher.c: trampolines and the jumps to them.
 *
 * Each hooked function gets a trampoline within +-2 GB (a rel32 jump reaches
 * it) in a pool mapped near the function: it saves the registers a call may
 * clobber, calls fpid_on_entry, restores them, runs the displaced
 * instructions (relocated by prologue.c) and jumps back after them. The
 * function's first 5 bytes become `jmp trampoline`, written with one atomic
 * store when they lie in one aligned 8 or 16-byte block (a thread running
 * them sees the old bytes or the new, never a mix). Unhooking writes the
 * original bytes back the same way; trampolines stay mapped, so a thread
 * inside one when dtrace detaches finishes its call normally.
 *
 * Once the hooks are in, patching (a library loaded later, link_map.c) and
 * unpatching (detach, fork) take one lock: the watcher thread may detach
 * while a thread patches the hooks of a library it just loaded.
 */
#include "agent.h"
#include "prologue.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define POOL_BYTES (256u * 1024u)
#define TRAMPOLINE_BYTES 128u
#define MAX_POOLS 32u
#define REACH ((int64_t)1 << 31)

struct pool {
    uint8_t *base;
    uint32_t used;
};

static struct pool pools[MAX_POOLS];
static uint32_t npools;

/* The original bytes of each patched hook, for unhooking (private: a forked
 * child unhooks its own copy of the code without touching the shared table). */
static uint8_t originals[FPID_MAX_HOOKS][FPID_JUMP_LENGTH];
static uint8_t patched[FPID_MAX_HOOKS];

/* The agent's own hooks on the unwinder (fpid_patch_guard), unhooked with the others. */
#define MAX_GUARDS 8u
static struct {
    uint64_t address;
    uint8_t original[FPID_JUMP_LENGTH];
} guards[MAX_GUARDS];
static uint32_t nguards;

static pthread_mutex_t patching = PTHREAD_MUTEX_INITIALIZER;

void fpid_patcher_lock(void) {
    pthread_mutex_lock(&patching);
}

void fpid_patcher_unlock(void) {
    pthread_mutex_unlock(&patching);
}

static int reaches(uint64_t from, uint64_t to) {
    int64_t distance = (int64_t)(to - from);
    return distance > -REACH + (int64_t)POOL_BYTES && distance < REACH - (int64_t)POOL_BYTES;
}

/* A pool within reach of `address`: an existing one, or one mapped below or
 * above it, trying every 16 MB out to ~2 GB. */
static struct pool *pool_near(uint64_t address) {
    for (uint32_t i = 0; i < npools; i++)
        if (reaches(address, (uint64_t)pools[i].base) && pools[i].used + TRAMPOLINE_BYTES <= POOL_BYTES)
            return &pools[i];
    if (npools == MAX_POOLS)
        return NULL;
    const uint64_t step = 16u << 20;
    for (uint64_t distance = step; distance < (uint64_t)REACH - 2 * step; distance += step) {
        for (int side = 0; side < 2; side++) {
            uint64_t hint = side == 0 ? address - distance : address + distance;
            hint &= ~(uint64_t)0xffff;
            void *p = mmap((void *)hint, POOL_BYTES, PROT_READ | PROT_WRITE | PROT_EXEC,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
            if (p == MAP_FAILED)
                continue;
            if (!reaches(address, (uint64_t)p)) {
                munmap(p, POOL_BYTES);
                continue;
            }
            pools[npools].base = p;
            pools[npools].used = 0;
            return &pools[npools++];
        }
    }
    return NULL;
}

static uint8_t *put_bytes(uint8_t *at, const void *bytes, size_t n) {
    memcpy(at, bytes, n);
    return at + n;
}

static uint8_t *put_u32(uint8_t *at, uint32_t value) {
    return put_bytes(at, &value, sizeof value);
}

static uint8_t *put_u64(uint8_t *at, uint64_t value) {
    return put_bytes(at, &value, sizeof value);
}

/* `jmp to` written at `at`, for an instruction that will run at `runs_at`. */
static uint8_t *put_jump(uint8_t *at, uint64_t runs_at, uint64_t to) {
    *at++ = 0xe9;
    return put_u32(at, (uint32_t)(int32_t)(int64_t)(to - (runs_at + FPID_JUMP_LENGTH)));
}

int fpid_make_return_trampoline(void) {
    uint8_t *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED)
        return -1;
    uint8_t *at = code;
    static const uint8_t save[] = {
        0x48, 0x83, 0xec, 0x08,       /* sub $8, %rsp: the slot for the original return address */
        0x50, 0x52,                   /* push %rax; push %rdx */
        0x48, 0x83, 0xec, 0x08,       /* sub $8, %rsp: aligned for the call */
        0x48, 0x8d, 0x7c, 0x24, 0x08, /* lea 8(%rsp), %rdi: {rdx, rax, slot} */
        0x49, 0xbb,                   /* movabs $fpid_on_return, %r11 */
    };
    static const uint8_t restore[] = {
        0x41, 0xff, 0xd3,             /* call *%r11 */
        0x48, 0x89, 0x44, 0x24, 0x18, /* mov %rax, 24(%rsp): into the slot */
        0x48, 0x83, 0xc4, 0x08,       /* add $8, %rsp */
        0x5a, 0x58,                   /* pop %rdx; pop %rax */
        0xc3,                         /* ret: to the original return address */
    };
    at = put_bytes(at, save, sizeof save);
    at = put_u64(at, (uint64_t)&fpid_on_return);
    put_bytes(at, restore, sizeof restore);
    if (mprotect(code, 4096, PROT_READ | PROT_EXEC) != 0)
        return -1;
    fpid_return_trampoline = (uint64_t)code;
    return 0;
}

/* Writes the trampoline of the function at `address`, which calls
 * handler(saved registers, argument); returns it, or NULL with `why`. */
static uint8_t *write_trampoline(uint64_t address, fpid_handler handler, uint32_t argument,
                                 const struct fpid_plan *plan, char *why, size_t why_size) {
    struct pool *pool = pool_near(address);
    if (pool == NULL) {
        snprintf(why, why_size, "no free memory within 2 GB of it for a trampoline");
        return NULL;
    }
    uint8_t *start = pool->base + pool->used;
    static const uint8_t save[] = {
        0x50, 0x57, 0x56, 0x52, 0x51,       /* push %rax %rdi %rsi %rdx %rcx */
        0x41, 0x50, 0x41, 0x51, 0x41, 0x52, /* push %r8 %r9 %r10 */
        0x55,                               /* push %rbp: the stack is now 16-byte aligned */
        0x48, 0x89, 0xe7,                   /* mov %rsp, %rdi: the saved registers */
        0xbe,                               /* mov $argument, %esi */
    };
    static const uint8_t call[] = {0x41, 0xff, 0xd3}; /* call *%r11 */
    static const uint8_t restore[] = {
        0x5d,                               /* pop %rbp */
        0x41, 0x5a, 0x41, 0x59, 0x41, 0x58, /* pop %r10 %r9 %r8 */
        0x59, 0x5a, 0x5e, 0x5f, 0x58,       /* pop %rcx %rdx %rsi %rdi %rax */
    };
    uint8_t *at = put_bytes(start, save, sizeof save);
    at = put_u32(at, argument);
    *at++ = 0x49; /* movabs $handler, %r11 */
    *at++ = 0xbb;
    at = put_u64(at, (uint64_t)handler);
    at = put_bytes(at, call, sizeof call);
    at = put_bytes(at, restore, sizeof restore);
    int n = fpid_relocate((const uint8_t *)address, plan, address, (uint64_t)at, at,
                          (size_t)(start + TRAMPOLINE_BYTES - 5 - at), why, why_size);
    if (n < 0)
        return NULL;
    at += n;
    if (!plan->ends_flow)
        put_jump(at, (uint64_t)at, address + plan->length);
    pool->used += TRAMPOLINE_BYTES;
    return start;
}

/* Writes `bytes` (5) over `address` in one atomic store where it can. */
static int write_code(uint64_t address, const uint8_t *bytes) {
    const uint64_t page = address & ~(uint64_t)4095;
    const size_t span = (size_t)(address + FPID_JUMP_LENGTH - page);
    if (mprotect((void *)page, span, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
        return -1;
    const uint64_t block8 = address & ~(uint64_t)7, block16 = address & ~(uint64_t)15;
    if (address + FPID_JUMP_LENGTH <= block8 + 8) {
        uint64_t word;
        memcpy(&word, (void *)block8, 8);
        memcpy((uint8_t *)&word + (address - block8), bytes, FPID_JUMP_LENGTH);
        __atomic_store_n((uint64_t *)block8, word, __ATOMIC_SEQ_CST);
    } else if (address + FPID_JUMP_LENGTH <= block16 + 16) {
        unsigned __int128 old, word;
        memcpy(&old, (void *)block16, 16);
        do {
            word = old;
            memcpy((uint8_t *)&word + (address - block16), bytes, FPID_JUMP_LENGTH);
        } while (!__sync_bool_compare_and_swap((unsigned __int128 *)block16, old, word) &&
                 (memcpy(&old, (void *)block16, 16), 1));
    } else {
        memcpy((void *)address, bytes, FPID_JUMP_LENGTH);
    }
    return mprotect((void *)page, span, PROT_READ | PROT_EXEC);
}

int fpid_patch(uint32_t index, char *why, size_t why_size) {
    struct fpid_hook *hook = &fpid_shm->hooks[index];
    const uint8_t *code = (const uint8_t *)hook->address;
    struct fpid_plan plan;
    if (fpid_plan_hook(code, hook->patch_length, hook->patch_length, hook->address, &plan) != 0 ||
        plan.length != hook->patch_length) {
        snprintf(why, why_size, "its first bytes are not those dtrace planned for");
        hook->status = FPID_HOOK_REFUSED;
        return -1;
    }
    fpid_hook_info_set(&fpid_hooks[index], hook->address, hook->flags);
    uint8_t *trampoline = write_trampoline(hook->address, fpid_on_entry, index, &plan, why, why_size);
    if (trampoline == NULL) {
        hook->status = FPID_HOOK_REFUSED;
        return -1;
    }
    uint8_t jump[FPID_JUMP_LENGTH];
    put_jump(jump, hook->address, (uint64_t)trampoline);
    memcpy(originals[index], code, FPID_JUMP_LENGTH);
    if (write_code(hook->address, jump) != 0) {
        snprintf(why, why_size, "its code cannot be made writable");
        hook->status = FPID_HOOK_REFUSED;
        return -1;
    }
    patched[index] = 1;
    hook->status = FPID_HOOK_PATCHED;
    return 0;
}

int fpid_patch_guard(uint64_t address, uint64_t size, fpid_handler handler, uint32_t argument) {
    struct fpid_plan plan;
    char why[200];
    if (nguards == MAX_GUARDS || fpid_plan_hook((const uint8_t *)address, size, size, address, &plan) != 0)
        return -1;
    uint8_t *trampoline = write_trampoline(address, handler, argument, &plan, why, sizeof why);
    if (trampoline == NULL)
        return -1;
    uint8_t jump[FPID_JUMP_LENGTH];
    put_jump(jump, address, (uint64_t)trampoline);
    guards[nguards].address = address;
    memcpy(guards[nguards].original, (const void *)address, FPID_JUMP_LENGTH);
    if (write_code(address, jump) != 0)
        return -1;
    nguards++;
    return 0;
}

void fpid_forget(uint32_t index) {
    patched[index] = 0;
}

/* The agent's guards first, in the reverse order of their patching: a guard
 * on a function a probe hooks too (_dl_debug_state under a description of
 * the dynamic linker's functions) saved the probe's jump as its original
 * bytes, which the probe's own unhooking then replaces. */
void fpid_unpatch_all(void) {
    for (; nguards > 0; nguards--)
        write_code(guards[nguards - 1].address, guards[nguards - 1].original);
    for (uint32_t i = 0; i < FPID_MAX_HOOKS; i++) {
        if (!patched[i])
            continue;
        write_code(fpid_hooks[i].address, originals[i]);
        patched[i] = 0;
    }
}
