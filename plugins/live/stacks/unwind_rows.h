// unwind_rows.h: one row of call frame information in a compact form: the
// canonical frame address as a register plus an offset, and each register
// a caller can still need either undefined, the same as in the callee, or
// saved at an offset from the CFA. Nearly every row of compiled code is of
// this form (25 205 of Debian libc's 25 212; the others compute the CFA
// by an expression, or restore a register from another register or by an
// expression: a signal frame's trampoline, longjmp's).
//
// The unwinder steps through such a row without evaluating DWARF
// expressions, and caches it per image (ElfImage::unwind_row); the same
// rows are what an unwinder in a BPF program can walk (docs/fastpath.md,
// "Stacks").
#pragma once

#include "user_regs.h"

#include <elfutils/libdw.h>

#include <array>
#include <cstdint>
#include <optional>
#include <span>

namespace dtrace::live::stacks {

// The copied stack: `bytes` are the memory from address `sp` up.
struct StackCopy {
    uint64_t sp = 0;
    std::span<const uint8_t> bytes;
};

// The registers a caller can still need: x86-64's callee-saved ones and
// the return address (the ABI leaves the others undefined across a call).
inline constexpr std::array<int, 7> kPreservedRegisters = {3, 6, 12, 13, 14, 15, kDwarfIp};

struct SavedRegister {
    enum class At : uint8_t { Undefined, Same, Cfa };
    At at = At::Undefined;
    uint64_t cfa_offset = 0; // At::Cfa: the register is at CFA + cfa_offset (modulo 2^64)
    bool operator==(const SavedRegister &) const = default;
};

struct UnwindRow {
    uint64_t start = 0, end = 0; // the link-time addresses [start, end) the row holds for
    int cfa_register = kDwarfSp; // CFA = the register's value + cfa_offset (modulo 2^64)
    uint64_t cfa_offset = 0;
    std::array<SavedRegister, kPreservedRegisters.size()> saved{}; // in kPreservedRegisters' order
    bool operator==(const UnwindRow &) const = default;
};

// A row's rules as the compact form reads them: the CFA as a register
// (libdw's number) plus an offset, nullopt when the CFA is not of that
// form; each preserved register's rule, nullopt when it is of none of
// SavedRegister's forms.
struct RowRules {
    struct Cfa {
        uint64_t register_number = 0, offset = 0;
        bool operator==(const Cfa &) const = default;
    };
    std::optional<Cfa> cfa;
    std::array<std::optional<SavedRegister>, kPreservedRegisters.size()> saved{}; // in kPreservedRegisters' order
    bool operator==(const RowRules &) const = default;
};

// The rules of `frame` (libdw's at one address).
RowRules row_rules(Dwarf_Frame *frame);

// The compact row of `rules` for [start, end); nullopt when one of its
// rules is not of the compact form.
std::optional<UnwindRow> compact_row(const RowRules &rules, uint64_t start, uint64_t end);

// The row of `frame` (libdw's rules at one address); nullopt when one of
// its rules is not of the compact form.
std::optional<UnwindRow> compact_row(Dwarf_Frame *frame);

// The caller's registers from the callee's (`regs`) by `row`, as the
// unwinder's evaluation of libdw's rules gives them; false at the
// outermost frame (the return address undefined or zero) or when the CFA's
// register is unknown.
bool step_by_row(const UnwindRow &row, const UserRegs &regs, const StackCopy &stack, UserRegs &caller);

// The 8 bytes of the copy at `address`; false outside it.
bool read_stack(const StackCopy &stack, uint64_t address, uint64_t &value);

} // namespace dtrace::live::stacks
