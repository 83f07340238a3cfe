// unwind_rows.cpp: libdw's rules in the compact form, and a step by them.
#include "unwind_rows.h"

#include <dwarf.h>

#include <cstring>

namespace dtrace::live::stacks {

namespace {

// libdw hands a CFA of `def_cfa(reg, offset)` as one DW_OP_bregx (or
// DW_OP_bregN) and a register of `offset(n)` as DW_OP_call_frame_cfa,
// DW_OP_plus_uconst n.
std::optional<RowRules::Cfa> cfa_rule(const Dwarf_Op *ops, size_t count) {
    if (count != 1)
        return std::nullopt;
    const Dwarf_Op &op = ops[0];
    if (op.atom == DW_OP_bregx)
        return RowRules::Cfa{op.number, op.number2};
    if (op.atom >= DW_OP_breg0 && op.atom <= DW_OP_breg31)
        return RowRules::Cfa{static_cast<uint64_t>(op.atom - DW_OP_breg0), op.number};
    return std::nullopt;
}

std::optional<SavedRegister> register_rule(Dwarf_Frame *frame, int number) {
    Dwarf_Op storage[3];
    Dwarf_Op *ops = nullptr;
    size_t count = 0;
    if (dwarf_frame_register(frame, number, storage, &ops, &count) != 0)
        return SavedRegister{}; // the unwinder takes a rule it cannot read as undefined
    if (count == 0)
        return SavedRegister{ops == nullptr ? SavedRegister::At::Same : SavedRegister::At::Undefined, 0};
    if (count == 2 && ops[0].atom == DW_OP_call_frame_cfa && ops[1].atom == DW_OP_plus_uconst)
        return SavedRegister{SavedRegister::At::Cfa, ops[1].number};
    return std::nullopt;
}

} // namespace

bool read_stack(const StackCopy &stack, uint64_t address, uint64_t &value) {
    if (address < stack.sp || address - stack.sp > stack.bytes.size() || stack.bytes.size() - (address - stack.sp) < 8)
        return false;
    std::memcpy(&value, stack.bytes.data() + (address - stack.sp), 8);
    return true;
}

RowRules row_rules(Dwarf_Frame *frame) {
    RowRules rules;
    Dwarf_Op *ops = nullptr;
    size_t count = 0;
    if (dwarf_frame_cfa(frame, &ops, &count) == 0)
        rules.cfa = cfa_rule(ops, count);
    for (size_t i = 0; i < kPreservedRegisters.size(); i++)
        rules.saved[i] = register_rule(frame, kPreservedRegisters[i]);
    return rules;
}

std::optional<UnwindRow> compact_row(const RowRules &rules, uint64_t start, uint64_t end) {
    if (!rules.cfa)
        return std::nullopt;
    UnwindRow row;
    row.start = start;
    row.end = end;
    row.cfa_register = static_cast<int>(rules.cfa->register_number);
    row.cfa_offset = rules.cfa->offset;
    if (row.cfa_register < 0 || row.cfa_register >= kDwarfRegisterCount)
        return std::nullopt;
    for (size_t i = 0; i < kPreservedRegisters.size(); i++) {
        if (!rules.saved[i])
            return std::nullopt;
        row.saved[i] = *rules.saved[i];
    }
    return row;
}

std::optional<UnwindRow> compact_row(Dwarf_Frame *frame) {
    Dwarf_Addr start = 0, end = 0;
    bool signal = false;
    if (dwarf_frame_info(frame, &start, &end, &signal) < 0)
        return std::nullopt;
    return compact_row(row_rules(frame), start, end);
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
