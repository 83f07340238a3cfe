// opcodes.cpp: the opcode and operand-format tables.
#include "dif/opcodes.h"

#include <array>

namespace dtrace::dif {

namespace {

constexpr std::array kFormats{
    FormatInfo{kUsesNone, ImmKind::None},                       // None
    FormatInfo{kWritesRd | kReadsR1 | kReadsR2, ImmKind::None}, // Binary
    FormatInfo{kWritesRd | kReadsR1, ImmKind::None},            // Unary
    FormatInfo{kWritesRd, ImmKind::IntIndex},                   // Setx
    FormatInfo{kWritesRd, ImmKind::StrOffset},                  // Sets
    FormatInfo{kWritesRd | kReadsR1, ImmKind::Width},           // Extend
    FormatInfo{kUsesNone, ImmKind::Target},                     // Branch
    FormatInfo{kReadsR1, ImmKind::Target},                      // CondBranch
    FormatInfo{kReadsR1, ImmKind::None},                        // Ret
    FormatInfo{kWritesRd | kReadsR1, ImmKind::Offset},          // Load
    FormatInfo{kReadsRd | kReadsR1, ImmKind::Offset},           // Store
    FormatInfo{kWritesRd, ImmKind::Variable},                   // LoadVar
    FormatInfo{kReadsR1, ImmKind::Variable},                    // StoreVar
    FormatInfo{kWritesRd | kReadsR1, ImmKind::Variable},        // LoadArray
    FormatInfo{kReadsR1, ImmKind::Size},                        // PushValue
    FormatInfo{kReadsR1, ImmKind::None},                        // PushString
    FormatInfo{kReadsR1 | kReadsR2, ImmKind::None},             // PushRef
    FormatInfo{kWritesRd, ImmKind::Subroutine},                 // Call
    FormatInfo{kReadsRd | kReadsR1 | kReadsR2, ImmKind::None},  // Copy
};
static_assert(kFormats.size() == size_t(Format::Copy) + 1, "one entry per Format");

constexpr VarAccess var(Scope scope, bool array, bool store) {
    return VarAccess{scope, array, store};
}

constexpr std::array kOps{
    OpInfo{Op::Nop, "nop", Format::None, {}},
    OpInfo{Op::Or, "or", Format::Binary, {}},
    OpInfo{Op::Xor, "xor", Format::Binary, {}},
    OpInfo{Op::And, "and", Format::Binary, {}},
    OpInfo{Op::Shl, "shl", Format::Binary, {}},
    OpInfo{Op::Srl, "srl", Format::Binary, {}},
    OpInfo{Op::Sra, "sra", Format::Binary, {}},
    OpInfo{Op::Sub, "sub", Format::Binary, {}},
    OpInfo{Op::Add, "add", Format::Binary, {}},
    OpInfo{Op::Mul, "mul", Format::Binary, {}},
    OpInfo{Op::Sdiv, "sdiv", Format::Binary, {}},
    OpInfo{Op::Udiv, "udiv", Format::Binary, {}},
    OpInfo{Op::Srem, "srem", Format::Binary, {}},
    OpInfo{Op::Urem, "urem", Format::Binary, {}},
    OpInfo{Op::Not, "not", Format::Unary, {}},
    OpInfo{Op::Mov, "mov", Format::Unary, {}},
    OpInfo{Op::Seq, "seq", Format::Binary, {}},
    OpInfo{Op::Sne, "sne", Format::Binary, {}},
    OpInfo{Op::Slt, "slt", Format::Binary, {}},
    OpInfo{Op::Sle, "sle", Format::Binary, {}},
    OpInfo{Op::Sltu, "sltu", Format::Binary, {}},
    OpInfo{Op::Sleu, "sleu", Format::Binary, {}},
    OpInfo{Op::Scmp, "scmp", Format::Binary, {}},
    OpInfo{Op::Setx, "setx", Format::Setx, {}},
    OpInfo{Op::Sets, "sets", Format::Sets, {}},
    OpInfo{Op::Sext, "sext", Format::Extend, {}},
    OpInfo{Op::Zext, "zext", Format::Extend, {}},
    OpInfo{Op::Ba, "ba", Format::Branch, {}},
    OpInfo{Op::Bz, "bz", Format::CondBranch, {}},
    OpInfo{Op::Bnz, "bnz", Format::CondBranch, {}},
    OpInfo{Op::Ret, "ret", Format::Ret, {}},
    OpInfo{Op::Ldsb, "ldsb", Format::Load, {}},
    OpInfo{Op::Ldsh, "ldsh", Format::Load, {}},
    OpInfo{Op::Ldsw, "ldsw", Format::Load, {}},
    OpInfo{Op::Ldx, "ldx", Format::Load, {}},
    OpInfo{Op::Ldub, "ldub", Format::Load, {}},
    OpInfo{Op::Lduh, "lduh", Format::Load, {}},
    OpInfo{Op::Lduw, "lduw", Format::Load, {}},
    OpInfo{Op::Ulsb, "ulsb", Format::Load, {}},
    OpInfo{Op::Ulsh, "ulsh", Format::Load, {}},
    OpInfo{Op::Ulsw, "ulsw", Format::Load, {}},
    OpInfo{Op::Ulx, "ulx", Format::Load, {}},
    OpInfo{Op::Ulub, "ulub", Format::Load, {}},
    OpInfo{Op::Uluh, "uluh", Format::Load, {}},
    OpInfo{Op::Uluw, "uluw", Format::Load, {}},
    OpInfo{Op::Stb, "stb", Format::Store, {}},
    OpInfo{Op::Sth, "sth", Format::Store, {}},
    OpInfo{Op::Stw, "stw", Format::Store, {}},
    OpInfo{Op::Stx, "stx", Format::Store, {}},
    OpInfo{Op::Ldgv, "ldgv", Format::LoadVar, var(Scope::Global, false, false)},
    OpInfo{Op::Stgv, "stgv", Format::StoreVar, var(Scope::Global, false, true)},
    OpInfo{Op::Ldlv, "ldlv", Format::LoadVar, var(Scope::ClauseLocal, false, false)},
    OpInfo{Op::Stlv, "stlv", Format::StoreVar, var(Scope::ClauseLocal, false, true)},
    OpInfo{Op::Ldtv, "ldtv", Format::LoadVar, var(Scope::ThreadLocal, false, false)},
    OpInfo{Op::Sttv, "sttv", Format::StoreVar, var(Scope::ThreadLocal, false, true)},
    OpInfo{Op::Ldga, "ldga", Format::LoadArray, var(Scope::Global, true, false)},
    OpInfo{Op::Stga, "stga", Format::StoreVar, var(Scope::Global, true, true)},
    OpInfo{Op::Ldta, "ldta", Format::LoadVar, var(Scope::ThreadLocal, true, false)},
    OpInfo{Op::Stta, "stta", Format::StoreVar, var(Scope::ThreadLocal, true, true)},
    OpInfo{Op::Pushtv, "pushtv", Format::PushValue, {}},
    OpInfo{Op::Pushts, "pushts", Format::PushString, {}},
    OpInfo{Op::Pushtr, "pushtr", Format::PushRef, {}},
    OpInfo{Op::Popts, "popts", Format::None, {}},
    OpInfo{Op::Flushts, "flushts", Format::None, {}},
    OpInfo{Op::Call, "call", Format::Call, {}},
    OpInfo{Op::Allocs, "allocs", Format::Unary, {}},
    OpInfo{Op::Copys, "copys", Format::Copy, {}},
};
static_assert(kOps.size() == size_t(Op::OpCount), "one entry per opcode");

constexpr bool in_opcode_order() {
    for (size_t i = 0; i < kOps.size(); i++)
        if (size_t(kOps[i].op) != i)
            return false;
    return true;
}
static_assert(in_opcode_order(), "the table is indexed by opcode");

} // namespace

const FormatInfo &format_info(Format format) {
    return kFormats[size_t(format)];
}

const OpInfo *op_info(uint8_t opcode) {
    return opcode < kOps.size() ? &kOps[opcode] : nullptr;
}

const OpInfo *op_by_mnemonic(std::string_view mnemonic) {
    for (const OpInfo &info : kOps)
        if (mnemonic == info.mnemonic)
            return &info;
    return nullptr;
}

} // namespace dtrace::dif
