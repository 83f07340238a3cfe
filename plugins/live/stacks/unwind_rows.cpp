// unwind_rows.cpp: libdw's rules in the compact form, and a step by them.
#include "unwind_rows.h"

#include <dwarf.h>

#include <cstring>

namespace dtrace::live::stacks {

namespace {

// libdw hands a CFA of `def_cfa(reg, offset)` as one DW_OP_bregx (or
// DW_OP_bregN) and a register of `offset(n)` as DW_OP_call_frame_cfa,
// DW_OP_plus_uconst n.
bool compact_cfa(const Dwarf_Op *ops, size_t count, UnwindRow &row) {
    if (count != 1)
        return false;
    const Dwarf_Op &op = ops[0];
    if (op.atom == DW_OP_bregx) {
        row.cfa_register = static_cast<int>(op.number);
        row.cfa_offset = op.number2;
    } else if (op.atom >= DW_OP_breg0 && op.atom <= DW_OP_breg31) {
        row.cfa_register = op.atom - DW_OP_breg0;
        row.cfa_offset = op.number;
    } else {
        return false;
    }
    return row.cfa_register >= 0 && row.cfa_register < kDwarfRegisterCount;
}

bool compact_register(Dwarf_Frame *frame, int number, SavedRegister &saved) {
    Dwarf_Op storage[3];
    Dwarf_Op *ops = nullptr;
    size_t count = 0;
    if (dwarf_frame_register(frame, number, storage, &ops, &count) != 0) {
        saved.at = SavedRegister::At::Undefined; // the unwinder takes a rule it cannot read as undefined
        return true;
    }
    if (count == 0) {
        saved.at = ops == nullptr ? SavedRegister::At::Same : SavedRegister::At::Undefined;
        return true;
    }
    if (count == 2 && ops[0].atom == DW_OP_call_frame_cfa && ops[1].atom == DW_OP_plus_uconst) {
        saved.at = SavedRegister::At::Cfa;
        saved.cfa_offset = ops[1].number;
        return true;
    }
    return false;
}

} // namespace

bool read_stack(const StackCopy &stack, uint64_t address, uint64_t &value) {
    if (address < stack.sp || address - stack.sp > stack.bytes.size() || stack.bytes.size() - (address - stack.sp) < 8)
        return false;
    std::memcpy(&value, stack.bytes.data() + (address - stack.sp), 8);
    return true;
}

std::optional<UnwindRow> compact_row(Dwarf_Frame *frame) {
    UnwindRow row;
    Dwarf_Addr start = 0, end = 0;
    bool signal = false;
    if (dwarf_frame_info(frame, &start, &end, &signal) < 0)
        return std::nullopt;
    row.start = start;
    row.end = end;
    Dwarf_Op *ops = nullptr;
    size_t count = 0;
    if (dwarf_frame_cfa(frame, &ops, &count) != 0 || !compact_cfa(ops, count, row))
        return std::nullopt;
    for (size_t i = 0; i < kPreservedRegisters.size(); i++)
        if (!compact_register(frame, kPreservedRegisters[i], row.saved[i]))
            return std::nullopt;
    return row;
}

bool step_by_row(const UnwindRow &row, const UserRegs &regs, const StackCopy &stack, UserRegs &caller) {
    if (!regs.known[row.cfa_register])
        return false;
    const uint64_t cfa = regs.value[row.cfa_register] + row.cfa_offset;
    caller = UserRegs{};
    for (size_t i = 0; i < kPreservedRegisters.size(); i++) {
        const int r = kPreservedRegisters[i];
        switch (row.saved[i].at) {
        case SavedRegister::At::Undefined:
            break;
        case SavedRegister::At::Same:
            caller.value[r] = regs.value[r];
            caller.known[r] = regs.known[r];
            break;
        case SavedRegister::At::Cfa:
            caller.known[r] = read_stack(stack, cfa + row.saved[i].cfa_offset, caller.value[r]);
            if (!caller.known[r])
                caller.value[r] = 0;
            break;
        }
    }
    // On x86-64 the caller's stack pointer is the CFA.
    caller.value[kDwarfSp] = cfa;
    caller.known[kDwarfSp] = true;
    return caller.known[kDwarfIp] && caller.value[kDwarfIp] != 0;
}

} // namespace dtrace::live::stacks
