// isa.h: the DIF instruction set (our own), as the compiler emits it and the
// VM runs it. docs/dif.md describes it for readers; this header is the truth.
//
// DIF is a small register machine chosen so that a clause can be proven safe
// before it runs:
//   - 8 registers of 64 bits; %r0 always reads as 0 and writes to it are lost;
//   - branches only go forward, so every program terminates in at most
//     code.size() steps (D has no loops);
//   - every load goes through a checked accessor (scratch, string table,
//     variable storage, and the regions the environment declares readable);
//     stores go to scratch only;
//   - variables are named by id and typed by the DIFO's variable table.
//
// Encoding: one 64-bit word per instruction,
//   bits  0..7  opcode      bits  8..15 rd      bits 16..23 r1
//   bits 24..31 r2          bits 32..63 imm (unsigned 32-bit; see each opcode)
#pragma once

#include <cstdint>

namespace dtrace::dif {

constexpr unsigned kRegisterCount = 8;
constexpr uint8_t kZeroRegister = 0;

enum class Op : uint8_t {
    Nop = 0,
    // Arithmetic and logic: rd = r1 op r2 (64-bit; division by zero faults).
    Or,
    Xor,
    And,
    Shl,
    Srl, // logical shift right
    Sra, // arithmetic shift right
    Sub,
    Add,
    Mul,
    Sdiv,
    Udiv,
    Srem,
    Urem,
    Not, // rd = ~r1
    Mov, // rd = r1
    // Comparisons: rd = (r1 op r2) ? 1 : 0.
    Seq,
    Sne,
    Slt,
    Sle,
    Sltu,
    Sleu,
    // rd = -1, 0 or 1 comparing the NUL-terminated strings at r1 and r2,
    // each bounded by the strsize option.
    Scmp,
    // Constants.
    Setx, // rd = inttab[imm]
    Sets, // rd = address of strtab[imm] (a NUL-terminated string)
    // Sign- or zero-extension of the low bits of r1: imm = bit width (8, 16, 32).
    Sext,
    Zext,
    // Control flow. imm = absolute index of the target instruction, which must
    // be greater than the branch's own index.
    Ba,  // always
    Bz,  // if r1 == 0
    Bnz, // if r1 != 0
    Ret, // return r1 (the DIFO's value; for strings and byrefs, the address)
    // Loads: rd = *(T *)(r1 + sign-extended imm) through the checked accessor.
    Ldsb,
    Ldsh,
    Ldsw,
    Ldx,
    Ldub,
    Lduh,
    Lduw,
    // Loads from the traced target's memory (copyin-like, through the event's
    // memory reader): rd = *(T *)(r1 + imm) in the target.
    Ulsb,
    Ulsh,
    Ulsw,
    Ulx,
    Ulub,
    Uluh,
    Uluw,
    // Stores: *(T *)(rd + sign-extended imm) = r1; the address must be scratch.
    Stb,
    Sth,
    Stw,
    Stx,
    // Variables. imm = variable id (see VarId and the DIFO's variable table).
    Ldgv, // rd = global scalar (or builtin when imm < kFirstUserVariable)
    Stgv, // global scalar = r1 (strings and byref types are copied in)
    Ldlv, // rd = clause-local (this->x)
    Stlv,
    Ldtv, // rd = thread-local scalar (self->x)
    Sttv,
    Ldga, // rd = global associative array element, key = tuple stack
          // (builtin arrays such as args[] take their index in r1 instead)
    Stga, // element = r1; storing 0 (or an empty string) deletes it
    Ldta, // thread-local associative array element
    Stta,
    // The tuple stack (keys of associative arrays, arguments of subroutines).
    Pushtv,  // push value r1; imm = size in bytes of the value's type (1..8)
    Pushts,  // push the string at r1 (copied, bounded by strsize)
    Pushtr,  // push r2 bytes of memory at r1 (a by-reference value such as a struct)
    Popts,   // discard the top entry
    Flushts, // empty the stack
    // rd = subroutine imm (Subr) applied to the tuple stack, which it empties.
    Call,
    // rd = address of r1 bytes of fresh, zeroed scratch (faults when exhausted).
    Allocs,
    // Copy r2 bytes from r1 (checked accessor) to rd (scratch).
    Copys,
    OpCount
};

// Instruction fields.
struct Instr {
    Op op;
    uint8_t rd, r1, r2;
    uint32_t imm;
};

constexpr uint64_t encode(Instr i) {
    return uint64_t(uint8_t(i.op)) | uint64_t(i.rd) << 8 | uint64_t(i.r1) << 16 | uint64_t(i.r2) << 24 |
           uint64_t(i.imm) << 32;
}

constexpr Instr decode(uint64_t w) {
    return Instr{Op(uint8_t(w)), uint8_t(w >> 8), uint8_t(w >> 16), uint8_t(w >> 24), uint32_t(w >> 32)};
}

// A load from memory (ldsb ... lduw): its width in bytes and whether it
// sign-extends; width 0 for any other instruction.
struct LoadShape {
    uint8_t width = 0;
    bool is_signed = false;
};

constexpr LoadShape load_shape(Op op) {
    switch (op) {
    case Op::Ldsb:
        return {1, true};
    case Op::Ldsh:
        return {2, true};
    case Op::Ldsw:
        return {4, true};
    case Op::Ldx:
        return {8, false};
    case Op::Ldub:
        return {1, false};
    case Op::Lduh:
        return {2, false};
    case Op::Lduw:
        return {4, false};
    default:
        return {};
    }
}

// Variable ids below kFirstUserVariable name builtins (read with Ldgv, or
// Ldga for the indexed ones). User variables are numbered from
// kFirstUserVariable within each scope (global, thread-local, clause-local).
enum class VarId : uint32_t {
    Args = 0, // args[]: Ldga with the index in r1
    Arg0,
    Arg1,
    Arg2,
    Arg3,
    Arg4,
    Arg5,
    Arg6,
    Arg7,
    Arg8,
    Arg9,
    Epid,
    Id,
    ProbeProv,
    ProbeMod,
    ProbeFunc,
    ProbeName,
    Timestamp,
    Vtimestamp,
    Walltimestamp,
    Pid,
    Ppid,
    Tid,
    Uid,
    Gid,
    Execname,
    Cpu,
    Errno,
    Caller,
    Ucaller,
    Stackdepth,
    Ustackdepth,
    Curthread,
    Ipl,
    Zonename,
    Cwd,
    Root,
    Threadname,
    Uregs, // uregs[]: Ldga with the index in r1
    Pmc,   // pmc[]: Ldga with the counter's id (resolved at compile time) in r1
    Count
};
constexpr uint32_t kFirstUserVariable = 0x100;

// Subroutines callable with Call. Arguments are taken from the tuple stack in
// order (first pushed = first argument).
enum class Subr : uint32_t {
    Strlen = 0,
    Strjoin,
    Substr,
    Index,
    Rindex,
    Strstr,
    Strchr,
    Strrchr,
    Strtok,
    Lltostr,
    Strtoll,
    Toupper,
    Tolower,
    Basename,
    Dirname,
    Cleanpath,
    Copyin,
    Copyinstr,
    Copyinto,
    Alloca,
    Bcopy,
    Htons,
    Htonl,
    Htonll,
    Ntohs,
    Ntohl,
    Ntohll,
    InetNtop,
    InetNtoa,
    InetNtoa6,
    Rand,
    Speculation,
    Progenyof,
    Json,
    Wstringof,
    // Internal: what stack(), ustack() and usym() and its kin record.
    Stack,
    Ustack,
    Usymaddr,
    Copyout,    // destructive: writes to the traced process
    Copyoutstr, // destructive
    Memref,
    Memstr,
    Count
};

} // namespace dtrace::dif
