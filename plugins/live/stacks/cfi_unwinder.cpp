// cfi_unwinder.cpp: one CFI step per frame (by the image's compact row,
// else by libdw's rules), and the DWARF expressions of the rules (libdw
// hands every rule over as an expression).
#include "cfi_unwinder.h"

#include <dwarf.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

namespace dtrace::live::stacks {

namespace {

// Evaluates a DWARF expression of a CFI rule. `cfa` is the frame's CFA for
// DW_OP_call_frame_cfa (absent while computing the CFA itself). `is_value`
// says whether the result is the value (DW_OP_stack_value) or its address.
std::optional<uint64_t> evaluate(const Dwarf_Op *ops, size_t count, const UserRegs &regs, const StackCopy &stack,
                                 std::optional<uint64_t> cfa, bool &is_value) {
    uint64_t values[16];
    size_t depth = 0;
    is_value = false;
    auto push = [&](uint64_t v) {
        if (depth == std::size(values))
            return false;
        values[depth++] = v;
        return true;
    };
    auto reg = [&](uint64_t number, uint64_t &out) {
        if (number >= kDwarfRegisterCount || !regs.known[number])
            return false;
        out = regs.value[number];
        return true;
    };
    for (size_t i = 0; i < count; i++) {
        const Dwarf_Op &op = ops[i];
        const uint8_t atom = op.atom;
        uint64_t a = 0, b = 0;
        if (atom >= DW_OP_lit0 && atom <= DW_OP_lit31) {
            if (!push(atom - DW_OP_lit0))
                return std::nullopt;
        } else if (atom >= DW_OP_breg0 && atom <= DW_OP_breg31) {
            if (!reg(atom - DW_OP_breg0, a) || !push(a + op.number))
                return std::nullopt;
        } else if (atom >= DW_OP_reg0 && atom <= DW_OP_reg31) {
            if (!reg(atom - DW_OP_reg0, a) || !push(a))
                return std::nullopt;
            is_value = true;
        } else {
            switch (atom) {
            case DW_OP_bregx:
                if (!reg(op.number, a) || !push(a + op.number2))
                    return std::nullopt;
                break;
            case DW_OP_regx:
                if (!reg(op.number, a) || !push(a))
                    return std::nullopt;
                is_value = true;
                break;
            case DW_OP_call_frame_cfa:
                if (!cfa || !push(*cfa))
                    return std::nullopt;
                break;
            case DW_OP_const1u:
            case DW_OP_const1s:
            case DW_OP_const2u:
            case DW_OP_const2s:
            case DW_OP_const4u:
            case DW_OP_const4s:
            case DW_OP_const8u:
            case DW_OP_const8s:
            case DW_OP_constu:
            case DW_OP_consts:
                if (!push(op.number))
                    return std::nullopt;
                break;
            case DW_OP_plus_uconst:
                if (depth < 1)
                    return std::nullopt;
                values[depth - 1] += op.number;
                break;
            case DW_OP_deref:
                if (depth < 1 || !read_stack(stack, values[depth - 1], a))
                    return std::nullopt;
                values[depth - 1] = a;
                break;
            case DW_OP_dup:
                if (depth < 1 || !push(values[depth - 1]))
                    return std::nullopt;
                break;
            case DW_OP_stack_value:
                is_value = true;
                break;
            case DW_OP_plus:
            case DW_OP_minus:
            case DW_OP_and:
            case DW_OP_or:
            case DW_OP_xor:
            case DW_OP_shl:
            case DW_OP_shr:
            case DW_OP_ge:
            case DW_OP_gt:
            case DW_OP_le:
            case DW_OP_lt:
            case DW_OP_eq:
            case DW_OP_ne:
            case DW_OP_mul:
                if (depth < 2)
                    return std::nullopt;
                b = values[--depth];
                a = values[depth - 1];
                switch (atom) {
                case DW_OP_plus:
                    a += b;
                    break;
                case DW_OP_minus:
                    a -= b;
                    break;
                case DW_OP_and:
                    a &= b;
                    break;
                case DW_OP_or:
                    a |= b;
                    break;
                case DW_OP_xor:
                    a ^= b;
                    break;
                case DW_OP_mul:
                    a *= b;
                    break;
                case DW_OP_shl:
                    a = b >= 64 ? 0 : a << b;
                    break;
                case DW_OP_shr:
                    a = b >= 64 ? 0 : a >> b;
                    break;
                case DW_OP_ge:
                    a = int64_t(a) >= int64_t(b);
                    break;
                case DW_OP_gt:
                    a = int64_t(a) > int64_t(b);
                    break;
                case DW_OP_le:
                    a = int64_t(a) <= int64_t(b);
                    break;
                case DW_OP_lt:
                    a = int64_t(a) < int64_t(b);
                    break;
                case DW_OP_eq:
                    a = a == b;
                    break;
                default:
                    a = a != b;
                    break;
                }
                values[depth - 1] = a;
                break;
            default:
                return std::nullopt; // an operation CFI of user code does not use
            }
        }
    }
    if (depth == 0)
        return std::nullopt;
    return values[depth - 1];
}

} // namespace

bool step_by_frame(Dwarf_Frame *frame, const UserRegs &regs, const StackCopy &stack, UserRegs &caller) {
    Dwarf_Op *ops = nullptr;
    size_t count = 0;
    bool is_value = false;
    if (dwarf_frame_cfa(frame, &ops, &count) != 0 || count == 0)
        return false;
    std::optional<uint64_t> cfa = evaluate(ops, count, regs, stack, std::nullopt, is_value);
    if (!cfa)
        return false;
    caller = UserRegs{};
    for (int r : kPreservedRegisters) {
        Dwarf_Op storage[3];
        if (dwarf_frame_register(frame, r, storage, &ops, &count) != 0)
            continue;
        if (count == 0) {
            if (ops == nullptr) { // same value
                caller.value[r] = regs.value[r];
                caller.known[r] = regs.known[r];
            }
            continue; // undefined
        }
        std::optional<uint64_t> v = evaluate(ops, count, regs, stack, cfa, is_value);
        if (v && !is_value && !read_stack(stack, *v, *v))
            v.reset();
        if (v) {
            caller.value[r] = *v;
            caller.known[r] = true;
        }
    }
    // On x86-64 the caller's stack pointer is the CFA.
    caller.value[kDwarfSp] = *cfa;
    caller.known[kDwarfSp] = true;
    return caller.known[kDwarfIp] && caller.value[kDwarfIp] != 0;
}

size_t unwind(const UserRegs &start, StackCopy stack, const CodeLocator &locate, std::span<uint64_t> out) {
    if (out.empty() || !start.known[kDwarfIp])
        return 0;
    UserRegs regs = start;
    size_t n = 0;
    out[n++] = regs.value[kDwarfIp];
    while (n < out.size()) {
        // A return address points after the call: look up the call itself.
        const uint64_t pc = regs.value[kDwarfIp] - (n == 1 ? 0 : 1);
        uint64_t link_address = 0;
        ElfImage *image = locate(pc, link_address);
        if (image == nullptr)
            break;
        UserRegs caller;
        if (std::optional<UnwindRow> row = image->unwind_row(link_address)) {
            if (!step_by_row(*row, regs, stack, caller))
                break;
        } else {
            std::unique_ptr<Dwarf_Frame, FrameFree> frame(image->frame_at(link_address));
            if (frame == nullptr || !step_by_frame(frame.get(), regs, stack, caller))
                break;
        }
        // The stack grows down: a caller's frame lies above its callee's.
        if (caller.value[kDwarfSp] <= regs.value[kDwarfSp])
            break;
        regs = caller;
        out[n++] = regs.value[kDwarfIp];
    }
    return n;
}

} // namespace dtrace::live::stacks
