// function_code.cpp: decoding a function with Zydis (x86-64).
#include "function_code.h"

#include <Zydis/Zydis.h>

#include <algorithm>

namespace dtrace::pid {

namespace {

bool init_decoder(ZydisDecoder &decoder) {
    return ZYAN_SUCCESS(ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64));
}

// The kernel refuses (uprobe_init_insn: is_prefix_bad, good_insns_64) the
// legacy prefixes lock (f0), es (26), cs (2e), ss (36), ds (3e, also
// notrack's byte), the VEX and EVEX encodings (AVX: c4, c5, 62), and int3.
std::optional<std::string> refusal_of(const ZydisDecodedInstruction &instruction) {
    if (instruction.encoding != ZYDIS_INSTRUCTION_ENCODING_LEGACY)
        return "a VEX or EVEX encoding (an AVX instruction)";
    for (uint8_t i = 0; i < instruction.raw.prefix_count; ++i) {
        switch (instruction.raw.prefixes[i].value) {
        case 0xf0:
            return "a lock prefix";
        case 0x26:
        case 0x2e:
        case 0x36:
        case 0x3e:
            return "a segment prefix";
        default:
            break;
        }
    }
    if (instruction.mnemonic == ZYDIS_MNEMONIC_INT3)
        return "a breakpoint (int3)";
    return std::nullopt;
}

} // namespace

std::optional<FunctionCode> decode_function(std::span<const uint8_t> code, uint64_t address) {
    ZydisDecoder decoder;
    if (!init_decoder(decoder))
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
        if (refusal_of(instruction))
            out.unprobeable.push_back(static_cast<uint32_t>(offset));
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

std::vector<uint8_t> unsized_function_code(std::span<const uint8_t> window, uint64_t address) {
    ZydisDecoder decoder;
    if (!init_decoder(decoder))
        return {};
    size_t offset = 0;
    uint64_t reached = 0; // the farthest forward branch target seen, as an offset
    while (offset < window.size()) {
        ZydisDecodedInstruction instruction;
        ZydisDecodedOperand operands[ZYDIS_MAX_OPERAND_COUNT];
        if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, window.data() + offset, window.size() - offset, &instruction,
                                                 operands)))
            return {};
        const ZydisInstructionCategory category = instruction.meta.category;
        const bool branch = category == ZYDIS_CATEGORY_COND_BR || category == ZYDIS_CATEGORY_UNCOND_BR;
        ZyanU64 target = 0;
        if (branch && operands[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && operands[0].imm.is_relative &&
            ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&instruction, &operands[0], address + offset, &target)) &&
            target > address + offset)
            reached = std::max<uint64_t>(reached, target - address);
        const bool ends = category == ZYDIS_CATEGORY_RET || category == ZYDIS_CATEGORY_UNCOND_BR;
        offset += instruction.length;
        if (ends && offset > reached)
            return {window.begin(), window.begin() + static_cast<std::ptrdiff_t>(offset)};
    }
    return {};
}

std::optional<std::string> uprobe_refusal(std::span<const uint8_t> code) {
    ZydisDecoder decoder;
    ZydisDecodedInstruction instruction;
    if (!init_decoder(decoder) ||
        !ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&decoder, nullptr, code.data(), code.size(), &instruction)))
        return "bytes that are not an instruction";
    return refusal_of(instruction);
}

} // namespace dtrace::pid
