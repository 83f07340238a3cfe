// function_code.cpp: decoding a function with Zydis (x86-64).
#include "function_code.h"

#include <Zydis/Zydis.h>

namespace dtrace::pid {

std::optional<FunctionCode> decode_function(std::span<const uint8_t> code, uint64_t address) {
    ZydisDecoder decoder;
    if (!ZYAN_SUCCESS(ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)))
        return std::nullopt;
    FunctionCode out;
    size_t offset = 0;
    while (offset < code.size()) {
        ZydisDecodedInstruction instruction;
        ZydisDecodedOperand operands[ZYDIS_MAX_OPERAND_COUNT];
        if (!ZYAN_SUCCESS(
                ZydisDecoderDecodeFull(&decoder, code.data() + offset, code.size() - offset, &instruction, operands)))
            return std::nullopt;
        out.instructions.push_back(static_cast<uint32_t>(offset));
        bool leaves = instruction.meta.category == ZYDIS_CATEGORY_RET;
        if (instruction.meta.category == ZYDIS_CATEGORY_UNCOND_BR && instruction.operand_count_visible == 1 &&
            operands[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && operands[0].imm.is_relative) {
            ZyanU64 target = 0;
            if (ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&instruction, &operands[0], address + offset, &target)))
                leaves = target < address || target >= address + code.size();
        }
        if (leaves)
            out.returns.push_back(static_cast<uint32_t>(offset));
        offset += instruction.length;
    }
    return out;
}

} // namespace dtrace::pid
