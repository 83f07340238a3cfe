// function_code.h: a function's machine code as the pid provider needs it:
// where each instruction starts (offset probes, `*`) and which instructions
// leave the function (return probes: every `ret`, and a direct `jmp` out of
// the function, a tail call), decoded with Zydis; and which instructions the
// kernel's uprobes refuse to place a breakpoint on.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dtrace::pid {

struct FunctionCode {
    std::vector<uint32_t> instructions; // offsets of every instruction, ascending
    std::vector<uint32_t> returns;      // offsets of the instructions that leave the function
    std::vector<uint32_t> unprobeable;  // offsets of instructions a uprobe cannot be placed on, ascending
};

// Decodes `code`, the bytes of a function at link-time `address`; nothing
// when a byte sequence is not an instruction (data in the text, or a size
// that is wrong): such a function gets no offset or return probes.
std::optional<FunctionCode> decode_function(std::span<const uint8_t> code, uint64_t address);

// The most bytes a function without a size (_init, crtstuff's) is read for.
inline constexpr size_t kMaxUnsizedFunction = 4096;

// The code of a function without a size, from `window` (its bytes up to
// kMaxUnsizedFunction): up to and including the first `ret` or `jmp` no
// earlier branch of the function jumps past. Empty when the bytes are not
// instructions up to such an end.
std::vector<uint8_t> unsized_function_code(std::span<const uint8_t> window, uint64_t address);

// Why the kernel's uprobes refuse the first instruction of `code` (x86's
// uprobe_init_insn: a lock or segment prefix, an int3, bytes that are no
// instruction); nothing when a uprobe can be placed there. Such an
// instruction cannot be single-stepped out of line, so it gets no probe.
std::optional<std::string> uprobe_refusal(std::span<const uint8_t> code);

} // namespace dtrace::pid
