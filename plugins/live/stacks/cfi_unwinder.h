// cfi_unwinder.h: unwinding a copied user stack with DWARF call frame
// information, for code built without frame pointers (Debian's libc).
//
// At a sample the kernel copies the registers and the top of the user stack
// (PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER). From there each frame's
// CFI rules (found by libdw in the image's .eh_frame or .debug_frame) give
// the canonical frame address and where the caller's registers were saved;
// the unwinder evaluates them against the registers it knows and the stack
// copy, and steps to the caller, until a rule needs memory outside the copy,
// the return address is undefined (the outermost frame) or `out` is full.
#pragma once

#include "elf_image.h"
#include "unwind_rows.h"
#include "user_regs.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

namespace dtrace::live::stacks {

// The image holding `pc` and the link-time address `pc` is at; nullptr: unknown code.
using CodeLocator = std::function<ElfImage *(uint64_t pc, uint64_t &link_address)>;

// One step by libdw's rules (any DWARF expression of user code's CFI): the
// caller's registers; false at the outermost frame or when a rule cannot be
// evaluated. unwind() takes it where a row is not compact (unwind_rows.h).
bool step_by_frame(Dwarf_Frame *frame, const UserRegs &regs, const StackCopy &stack, UserRegs &caller);

// Writes the program counters of the stack to `out`, innermost (regs' ip)
// first; returns how many.
size_t unwind(const UserRegs &regs, StackCopy stack, const CodeLocator &locate, std::span<uint64_t> out);

} // namespace dtrace::live::stacks
