/*
 * prologue.h: whether a function's first bytes can be replaced by a 5-byte
 * jump, and those bytes relocated to run elsewhere (a trampoline), with
 * Zydis's x86-64 decoder and encoder. Plain C: dtrace plans each hook when a
 * probe is enabled (so a function that cannot be hooked is refused then,
 * with the reason), and the agent in the traced process plans it again on
 * the live bytes and relocates them.
 *
 * A function can be hooked when its first instructions, covering at least 5
 * bytes, can each run elsewhere: position-independent ones are copied;
 * relative branches and calls, and rip-relative memory operands, are
 * re-encoded for their new address (a short jcc becomes a near one). It is
 * refused when an instruction cannot be moved (loop, jrcxz: only short
 * forms; a rip-relative operand out of reach), when a branch anywhere in the
 * function lands inside the replaced bytes other than at their start, or
 * when the function is shorter than the jump and what follows it is not
 * padding (nop, int3) before the next symbol.
 */
#ifndef DTRACE_FPID_PROLOGUE_H
#define DTRACE_FPID_PROLOGUE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FPID_JUMP_LENGTH 5u

struct fpid_plan {
    uint32_t length;      /* bytes the jump replaces (>= 5) */
    uint32_t live_length; /* of which instructions that run (the rest is padding after a ret or jmp) */
    int ends_flow;        /* the last live instruction never falls through (ret, jmp) */
    char why[200];        /* when refused: the reason */
};

/* Plans a hook at `address`, whose function's bytes are code[0..size);
 * code[size..room) (up to the next symbol) may be taken as padding after a
 * function shorter than the jump. Every branch of code[0..size) is checked.
 * Returns 0, or -1 with plan->why. */
int fpid_plan_hook(const uint8_t *code, uint64_t size, uint64_t room, uint64_t address, struct fpid_plan *plan);

/* Writes the plan's live instructions, relocated to run at `to`, into out.
 * Returns the bytes written, or -1 with `why` (an operand out of reach). */
int fpid_relocate(const uint8_t *code, const struct fpid_plan *plan, uint64_t address, uint64_t to, uint8_t *out,
                  size_t out_size, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif
