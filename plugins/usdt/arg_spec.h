// arg_spec.h: a USDT note's argument specs ("8@%rax -4@112(%rsp) -4@$5").
//
// Each argument is "[-]SIZE@OPERAND" in the assembler's AT&T syntax: the
// size in bytes (1, 2, 4, 8; negative: signed), then a register (any x86-64
// name of it: %rax %eax %ax %al), an immediate ($5, $-1) or memory at a
// register plus a displacement (-20(%rbp), (%rdi)). What is read is turned
// into the uprobe program's uprobe_usdt_arg. An operand in another form (an
// index register, a symbol's displacement) is kept as Unsupported: the
// argument reads 0 and -lv says so, the other arguments still work.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bpf/uprobe_record.h"

namespace dtrace::usdt {

struct ArgSpec {
    enum class Kind : uint8_t { Constant, Register, Memory, Unsupported };
    Kind kind = Kind::Unsupported;
    uint8_t size = 8; // bytes
    bool is_signed = false;
    uint8_t reg = 0;   // enum uprobe_reg (Register, Memory)
    int64_t value = 0; // the constant, or the displacement (Memory)
    std::string text;  // as the note spells it
};

// The specs of one note's argument string; nullopt when it is not a list
// of "SIZE@OPERAND" words (the note is then skipped as malformed).
std::optional<std::vector<ArgSpec>> parse_arg_specs(std::string_view text);

// The register of an AT&T register name without its '%' ("eax" -> RAX).
std::optional<uint8_t> register_of(std::string_view name);

// The D type of an argument of this spec ("int32_t", "uint64_t").
std::string arg_type_name(const ArgSpec &spec);

// As the uprobe program reads it.
uprobe_usdt_arg to_uprobe_arg(const ArgSpec &spec);

// Arguments past the sixth, which the uprobe program does not place, are
// decoded in user space from the record's tail: its registers, and the user
// stack it copies from rsp. stack_window_for says how much stack a site's
// memory operands (past the sixth, rsp-based) need copied at the event
// (256 up to UPROBE_STACK_MAX bytes; 0: none, or more than that);
// argument_from_tail reads one such argument (a memory operand outside the
// copy reads 0), extended from its size as the program extends the others.
uint32_t stack_window_for(const std::vector<ArgSpec> &args, uint32_t nargs);
uint64_t argument_from_tail(const ArgSpec &spec, const uprobe_tail &tail, std::span<const uint8_t> stack);

} // namespace dtrace::usdt
