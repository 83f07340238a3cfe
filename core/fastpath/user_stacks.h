// user_stacks.h: ustack() in the kernel (docs/fastpath.md, "Stacks"): a
// walk of the user stack by the compact CFI rows a plugin puts in BPF maps
// (dtrace_fastpath_unwind_row, dtrace_fastpath_user_mapping), giving the
// frames the user-space unwinder (live/stacks/cfi_unwinder.h) gives from
// its copy of the same stack, or sending the event to the user-space path.
//
// The walk copies the stack as the user-space path does (the largest of
// its fixed sizes readable from the event's rsp, live_stacks.bpf.h: one
// bpf_probe_read_user() into the per-CPU state), then takes each frame in
// one step, unrolled: the pc's mapping by binary search, its row by binary
// search between its block's entries (array lookups, which the kernel inlines), the CFA from rsp or rbp, the return
// address and the saved rbp from the copy. It stops where the user-space
// unwinder stops (no CFI, an undefined or zero return address, a word
// outside the copy, a caller's frame not above its callee's); it goes to
// the fallback where the user-space unwinder would evaluate what the rows
// cannot say (a DWARF expression, another CFA register, code without
// rows) and at a pc outside the mappings the table knows (a file mapped
// since: the user-space path reads /proc again).
#pragma once

#include "fastpath/bpf_emitter.h"
#include "fastpath/kernel_frame.h"

#include <cstdint>
#include <optional>

namespace dtrace::fastpath {

// The most frames a walk takes: each is a step of about 330 instructions
// and 60 branches, and the verifier follows at most 8192 branches on one
// path (127 frames went past it).
inline constexpr uint32_t kMaxUserStackFrames = 64;

// The walker's maps in a plan.
struct UserStackWalk {
    uint32_t state_map = 0;    // per-CPU: the frame being walked and the frames found
    uint32_t rows_map = 0;     // DTRACE_UNWIND_ROWS_MAX rows
    uint32_t mappings_map = 0; // DTRACE_UNWIND_MAPPINGS_MAX mappings
    uint32_t blocks_map = 0;   // DTRACE_UNWIND_BLOCKS_MAX block entries (u32 row indices)
    // A program array of one entry: the plugin's program that delivers an
    // event the walk declines to user space (dtrace_fastpath_ops.fill_way_back).
    // One per type of program (a raw tracepoint's, another's): a tail call
    // goes only to a program of the caller's type, and a plugin's probes
    // may have both (sdt's tracepoints, sched:::off-cpu).
    uint32_t way_back_map = 0;
};

// Adds the walker's maps to `plan` (once), with room for `frames` frames,
// and the way back of programs of raw tracepoints or of the others.
UserStackWalk plan_user_stack_walk(MapPlan &plan, uint32_t frames, bool raw_tracepoint);
// The walker's maps with that way back, if `plan` has them (its programs walk user stacks).
std::optional<UserStackWalk> planned_user_stack_walk(const MapPlan &plan, bool raw_tracepoint);

inline bool is_user_stack(const dif::TypeDesc &type) {
    return type.shown == dif::TypeDesc::Shown::UserStack;
}

// The frames of a ustack(n) key (the engine's: the pid, then n frames).
inline uint32_t user_stack_key_frames(const dif::TypeDesc &type) {
    return type.size / 8 > 0 ? type.size / 8 - 1 : 0;
}

// The most bytes of the stack the user-space path copies (UPROBE_STACK_MAX).
inline constexpr uint32_t kUserStackCopyBytes = 8192;

// Walks `frames` frames (at most kMaxUserStackFrames) from the registers
// at `place` into the state map's frames (zero past the last), leaving the
// state's address in r9; jumps to `fallback` when the event must go to the
// user-space path: an event of another process than the table's
// (DTRACE_UNWIND_PROCESS_ENTRY) at once, before anything is read. The copy of the stack takes up to `stack_bytes`, and
// (`main_stack` known) for a main thread only what lies below its start,
// as the user-space path's copy (live_user_stack_wanted()). Clobbers
// r0-r5, r7-r9 and frame::kIndex.
void emit_user_stack_walk(BpfEmitter &out, const UserStackWalk &walk, const UserRegisterPlace &place, uint32_t frames,
                          uint32_t stack_bytes, BpfEmitter::Label fallback, const MainStackStart &main_stack = {});

// Copies the walk's `frames` frames (the state at r9) to dst + offset. Clobbers r1.
void emit_copy_user_stack(BpfEmitter &out, bpf::Reg dst, int16_t offset, uint32_t frames);

// r9 = the walk's state again (after code that used r9), jumping to
// `missing` when the lookup fails (never: a one-entry array). Clobbers r0-r5.
void emit_user_stack_state(BpfEmitter &out, const UserStackWalk &walk, BpfEmitter::Label missing);

// The way back: tail-calls the plugin's program in the way-back map with
// the context (r6); returns 0 if the tail call fails (the map is empty).
void emit_way_back(BpfEmitter &out, const UserStackWalk &walk);

} // namespace dtrace::fastpath
