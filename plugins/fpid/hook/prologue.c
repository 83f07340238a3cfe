/* prologue.c: planning and relocating a hook's displaced instructions (prologue.h). */
#include "prologue.h"

#include "fpid_shm.h"

#include <Zydis/Zydis.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void say(char *why, size_t size, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(why, size, format, args);
    va_end(args);
}

static void init_decoder(ZydisDecoder *decoder) {
    ZydisDecoderInit(decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
}

static int is_rip_relative(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops) {
    for (uint8_t i = 0; i < in->operand_count; i++)
        if (ops[i].type == ZYDIS_OPERAND_TYPE_MEMORY && ops[i].mem.base == ZYDIS_REGISTER_RIP)
            return 1;
    return 0;
}

static int is_branch(const ZydisDecodedInstruction *in) {
    return in->meta.category == ZYDIS_CATEGORY_COND_BR || in->meta.category == ZYDIS_CATEGORY_UNCOND_BR ||
           in->meta.category == ZYDIS_CATEGORY_CALL;
}

/* The target of a relative branch (immediate operand), if it is one. */
static int branch_target(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops, uint64_t at,
                         uint64_t *target) {
    if (!(in->attributes & ZYDIS_ATTRIB_IS_RELATIVE) || !is_branch(in))
        return 0;
    for (uint8_t i = 0; i < in->operand_count_visible; i++)
        if (ops[i].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && ops[i].imm.is_relative)
            return ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(in, &ops[i], at, target));
    return 0;
}

static int ends_flow(const ZydisDecodedInstruction *in) {
    return in->meta.category == ZYDIS_CATEGORY_RET || in->meta.category == ZYDIS_CATEGORY_UNCOND_BR ||
           in->mnemonic == ZYDIS_MNEMONIC_UD2 || in->mnemonic == ZYDIS_MNEMONIC_INT3 ||
           in->mnemonic == ZYDIS_MNEMONIC_HLT;
}

/* Whether a displaced instruction can run at another address. */
static int movable(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops, char *why, size_t size) {
    if (!(in->attributes & ZYDIS_ATTRIB_IS_RELATIVE))
        return 1;
    if (is_rip_relative(in, ops))
        return 1;
    switch (in->mnemonic) {
    case ZYDIS_MNEMONIC_LOOP: /* short forms only */
    case ZYDIS_MNEMONIC_LOOPE:
    case ZYDIS_MNEMONIC_LOOPNE:
    case ZYDIS_MNEMONIC_JCXZ:
    case ZYDIS_MNEMONIC_JECXZ:
    case ZYDIS_MNEMONIC_JRCXZ:
        break;
    default:
        /* jmp, call and jcc have near forms; anything else relative is refused */
        if (in->mnemonic == ZYDIS_MNEMONIC_JMP || in->mnemonic == ZYDIS_MNEMONIC_CALL ||
            in->meta.category == ZYDIS_CATEGORY_COND_BR)
            return 1;
    }
    say(why, size, "its instruction %s has no form that reaches from elsewhere", ZydisMnemonicGetString(in->mnemonic));
    return 0;
}

/* Padding after the function: nops and int3 only. */
static int is_padding(const ZydisDecodedInstruction *in) {
    return in->mnemonic == ZYDIS_MNEMONIC_NOP || in->mnemonic == ZYDIS_MNEMONIC_INT3;
}

/* Refuses when a branch of the function (after the displaced bytes) lands inside them. */
static int check_branches_into(const ZydisDecoder *decoder, const uint8_t *code, uint64_t size, uint64_t address,
                               uint32_t length, char *why, size_t why_size) {
    ZydisDecodedInstruction in;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    for (uint64_t at = 0; at < size;) {
        if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(decoder, code + at, size - at, &in, ops))) {
            at++; /* data or padding inside the function: resynchronise */
            continue;
        }
        uint64_t target = 0;
        if (branch_target(&in, ops, address + at, &target) && target > address && target < address + length) {
            say(why, why_size, "the %s at +0x%llx jumps to +0x%llx, inside the %u bytes the hook replaces",
                ZydisMnemonicGetString(in.mnemonic), (unsigned long long)at, (unsigned long long)(target - address),
                length);
            return -1;
        }
        at += in.length;
    }
    return 0;
}

int fpid_plan_hook(const uint8_t *code, uint64_t size, uint64_t room, uint64_t address, struct fpid_plan *plan) {
    memset(plan, 0, sizeof *plan);
    ZydisDecoder decoder;
    init_decoder(&decoder);
    ZydisDecodedInstruction in;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    uint32_t at = 0;
    int flow_ended = 0;
    while (at < FPID_JUMP_LENGTH) {
        const uint64_t limit = flow_ended ? room : size;
        if (at >= limit || !ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, code + at, limit - at, &in, ops))) {
            say(plan->why, sizeof plan->why,
                flow_ended ? "it is %llu bytes long and what follows it is not padding (a %u-byte jump does not fit)"
                           : "its first instructions do not decode within its %llu bytes (a %u-byte jump needs them)",
                (unsigned long long)size, FPID_JUMP_LENGTH);
            return -1;
        }
        if (flow_ended) {
            if (!is_padding(&in)) {
                say(plan->why, sizeof plan->why,
                    "it is %llu bytes long and what follows it is not padding (a %u-byte jump does not fit)",
                    (unsigned long long)size, FPID_JUMP_LENGTH);
                return -1;
            }
        } else {
            if (!movable(&in, ops, plan->why, sizeof plan->why))
                return -1;
            plan->live_length = at + in.length;
            flow_ended = ends_flow(&in);
        }
        at += in.length;
    }
    plan->length = at;
    plan->ends_flow = flow_ended;
    return check_branches_into(&decoder, code, size, address, plan->length, plan->why, sizeof plan->why);
}

/* Re-encodes a relative instruction for address `to`. */
static int reencode(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops, uint64_t from, uint64_t to,
                    uint8_t *out, size_t out_size, char *why, size_t why_size) {
    ZydisEncoderRequest request;
    if (!ZYAN_SUCCESS(ZydisEncoderDecodedInstructionToEncoderRequest(in, ops, in->operand_count_visible, &request))) {
        say(why, why_size, "cannot re-encode its %s", ZydisMnemonicGetString(in->mnemonic));
        return -1;
    }
    for (uint8_t i = 0; i < in->operand_count_visible; i++) {
        uint64_t absolute = 0;
        if (ops[i].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && ops[i].imm.is_relative) {
            ZydisCalcAbsoluteAddress(in, &ops[i], from, &absolute);
            request.operands[i].imm.u = absolute;
            request.branch_type = ZYDIS_BRANCH_TYPE_NEAR;
            request.branch_width = ZYDIS_BRANCH_WIDTH_32;
        } else if (ops[i].type == ZYDIS_OPERAND_TYPE_MEMORY && ops[i].mem.base == ZYDIS_REGISTER_RIP) {
            ZydisCalcAbsoluteAddress(in, &ops[i], from, &absolute);
            request.operands[i].mem.displacement = (ZyanI64)absolute;
        }
    }
    ZyanUSize length = out_size;
    if (!ZYAN_SUCCESS(ZydisEncoderEncodeInstructionAbsolute(&request, out, &length, to))) {
        say(why, why_size, "its %s cannot reach its target from the trampoline", ZydisMnemonicGetString(in->mnemonic));
        return -1;
    }
    return (int)length;
}

static int uses_register(const ZydisDecodedOperand *op, ZydisRegister reg) {
    if (op->type == ZYDIS_OPERAND_TYPE_REGISTER)
        return ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, op->reg.value) == reg;
    return op->type == ZYDIS_OPERAND_TYPE_MEMORY && (op->mem.base == reg || op->mem.index == reg);
}

/* A call that ends the displaced bytes, written as `push` of its return
 * address in the function and a jump to its target, so that the callee
 * returns to the function itself, not to the trampoline: the unwinder (C++
 * exceptions) and stack walks find the function's own return address, as
 * without the hook. Scratch register r11, which a call clobbers anyway; a
 * call whose operand reads rsp or r11 is left to run from the trampoline.
 * Returns the bytes written, 0 when the call is left as it is, -1 on error. */
static int call_as_jump(const ZydisDecodedInstruction *in, const ZydisDecodedOperand *ops, uint64_t from, uint64_t to,
                        uint8_t *out, size_t out_size, char *why, size_t why_size) {
    if (in->mnemonic != ZYDIS_MNEMONIC_CALL || uses_register(&ops[0], ZYDIS_REGISTER_RSP) ||
        uses_register(&ops[0], ZYDIS_REGISTER_R11))
        return 0;
    const uint64_t return_address = from + in->length;
    static const size_t kPush = 12; /* movabs $return_address, %r11; push %r11 */
    if (out_size < kPush) {
        say(why, why_size, "its relocated instructions do not fit the trampoline");
        return -1;
    }
    out[0] = 0x49;
    out[1] = 0xbb;
    memcpy(out + 2, &return_address, 8);
    out[10] = 0x41;
    out[11] = 0x53;
    ZydisEncoderRequest request;
    if (!ZYAN_SUCCESS(ZydisEncoderDecodedInstructionToEncoderRequest(in, ops, in->operand_count_visible, &request))) {
        say(why, why_size, "cannot re-encode its call");
        return -1;
    }
    request.mnemonic = ZYDIS_MNEMONIC_JMP;
    uint64_t absolute = 0;
    if (ops[0].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && ops[0].imm.is_relative) {
        ZydisCalcAbsoluteAddress(in, &ops[0], from, &absolute);
        request.operands[0].imm.u = absolute;
        request.branch_type = ZYDIS_BRANCH_TYPE_NEAR;
        request.branch_width = ZYDIS_BRANCH_WIDTH_32;
    } else if (ops[0].type == ZYDIS_OPERAND_TYPE_MEMORY && ops[0].mem.base == ZYDIS_REGISTER_RIP) {
        ZydisCalcAbsoluteAddress(in, &ops[0], from, &absolute);
        request.operands[0].mem.displacement = (ZyanI64)absolute;
    }
    ZyanUSize length = out_size - kPush;
    if (!ZYAN_SUCCESS(ZydisEncoderEncodeInstructionAbsolute(&request, out + kPush, &length, to + kPush))) {
        say(why, why_size, "its call cannot reach its target from the trampoline");
        return -1;
    }
    return (int)(kPush + length);
}

int fpid_relocate(const uint8_t *code, const struct fpid_plan *plan, uint64_t address, uint64_t to, uint8_t *out,
                  size_t out_size, char *why, size_t why_size) {
    ZydisDecoder decoder;
    init_decoder(&decoder);
    ZydisDecodedInstruction in;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    size_t written = 0;
    for (uint32_t at = 0; at < plan->live_length; at += in.length) {
        if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, code + at, plan->live_length - at, &in, ops))) {
            say(why, why_size, "its bytes changed since the hook was planned");
            return -1;
        }
        /* The last displaced instruction returns past the replaced bytes:
         * a call there can return to the function itself. */
        const int last = at + in.length >= plan->live_length;
        int n =
            last ? call_as_jump(&in, ops, address + at, to + written, out + written, out_size - written, why, why_size)
                 : 0;
        if (n < 0)
            return -1;
        if (n > 0) {
            written += (size_t)n;
        } else if (in.attributes & ZYDIS_ATTRIB_IS_RELATIVE) {
            n = reencode(&in, ops, address + at, to + written, out + written, out_size - written, why, why_size);
            if (n < 0)
                return -1;
            written += (size_t)n;
        } else {
            if (written + in.length > out_size) {
                say(why, why_size, "its relocated instructions do not fit the trampoline");
                return -1;
            }
            memcpy(out + written, code + at, in.length);
            written += in.length;
        }
    }
    return (int)written;
}
