// opcodes.h: what each DIF opcode looks like from the outside — its
// mnemonic, which instruction fields it reads or writes and what its
// immediate means. One table drives the assembler, the disassembler and the
// validator so the three cannot disagree; the VM implements the semantics.
#pragma once

#include "dif/difo.h"
#include "dif/isa.h"

#include <optional>
#include <string_view>

namespace dtrace::dif {

// The operand shape of an instruction. Assembly text puts the destination
// first: `add %r3, %r1, %r2`, `ldx %r2, [%r1+8]`, `stx [%r2+8], %r1`.
enum class Format : uint8_t {
    None,       // nop
    Binary,     // rd, r1, r2
    Unary,      // rd, r1
    Setx,       // rd, inttab index
    Sets,       // rd, strtab offset
    Extend,     // rd, r1, bit width
    Branch,     // target
    CondBranch, // r1, target
    Ret,        // r1
    Load,       // rd, [r1 + offset]
    Store,      // [rd + offset], r1
    LoadVar,    // rd, variable
    StoreVar,   // variable, r1
    LoadArray,  // rd, variable, r1 (r1: the index of a builtin array)
    PushValue,  // r1, size in bytes
    PushString, // r1
    PushRef,    // r1, r2 (address, size)
    Call,       // rd, subroutine
    Copy,       // rd, r1, r2 (destination address, source address, size)
};

// What the 32-bit immediate holds.
enum class ImmKind : uint8_t { None, IntIndex, StrOffset, Width, Target, Offset, Variable, Size, Subroutine };

// Register fields an instruction uses; unused fields must be zero.
enum RegUse : uint8_t {
    kUsesNone = 0,
    kReadsRd = 1 << 0,
    kWritesRd = 1 << 1,
    kReadsR1 = 1 << 2,
    kReadsR2 = 1 << 3,
};

struct FormatInfo {
    uint8_t regs; // RegUse bits
    ImmKind imm;
};

// Variables an opcode names with its immediate.
struct VarAccess {
    Scope scope;
    bool array;
    bool store;
};

struct OpInfo {
    Op op;
    const char *mnemonic;
    Format format;
    std::optional<VarAccess> var; // for the variable opcodes
};

const FormatInfo &format_info(Format format);

// nullptr for an opcode byte that names no instruction.
const OpInfo *op_info(uint8_t opcode);
const OpInfo *op_by_mnemonic(std::string_view mnemonic);

} // namespace dtrace::dif
