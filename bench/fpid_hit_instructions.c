/* fpid_hit_instructions.c: the instructions one fpid entry hit executes in
 * the traced thread (hits.c's fpid_on_entry), counted by callgrind rather
 * than timed: timings on a shared VM spread by half, instruction counts do
 * not. Built against a tree's plugins/fpid (fpid_hit_instructions.sh), so
 * two trees (before and after a change to the hot path) compare exactly.
 * The loop around the calls adds a few instructions of its own.
 *
 *   fpid_hit_instructions HITS FLAGS   HITS calls of fpid_on_entry with a
 *                                      hook of FLAGS (FPID_HOOK_*), one ring
 */
#include "agent.h"

#include <stdio.h>
#include <stdlib.h>

struct fpid_shm *fpid_shm;
struct fpid_hook_info fpid_hooks[FPID_MAX_HOOKS];
volatile int fpid_active = 1;
uint64_t fpid_return_trampoline;

/* What the rest of the agent would define; never called for entry-only hooks. */
int fpid_make_return_trampoline(void) {
    return -1;
}

int main(int argc, char **argv) {
    if (argc != 3)
        return 2;
    const long hits = atol(argv[1]);
    const uint32_t ring_bytes = 1u << 16;
    fpid_shm = calloc(1, fpid_shm_size(ring_bytes));
    if (fpid_shm == NULL || fpid_threads_init() != 0)
        return 1;
    fpid_shm->ring_bytes = ring_bytes;
    fpid_shm->stack_frames = 20;
    fpid_hook_info_set(&fpid_hooks[0], 0x1000, FPID_HOOK_ENTRY | (uint32_t)strtoul(argv[2], NULL, 0));
    struct fpid_ring *ring = (struct fpid_ring *)((uint8_t *)fpid_shm + fpid_ring_offset(ring_bytes, 0));
    uint64_t regs[10] = {0};
    for (long i = 0; i < hits; i++) {
        fpid_on_entry(regs, 0);
        ring->tail = ring->head; /* the reader keeps up: no drops */
    }
    printf("%llu bytes recorded\n", (unsigned long long)ring->head);
    return 0;
}
