// user_registers.cpp: uregs[] from a uprobe's registers, and the R_* names.
#include "user_registers.h"

#include <asm/perf_regs.h>

#include <cstddef>

namespace dtrace::live {

namespace {

constexpr uint32_t kSegmentFirst = 21; // R_DS .. R_GS: not seen by a uprobe
constexpr uint32_t kSegmentCount = 4;
constexpr uint32_t kAliasFirst = 25; // R_EBX
constexpr int kMissing = -1;
// What each 32-bit name (R_EBX + k) reads: a pt_regs index, or nothing (the
// i386 order: ebx ecx edx esi edi ebp eax ds es fs gs trapno eip cs efl esp ss).
constexpr int kAliasOf[kUregsCount - kAliasFirst] = {5,        11,       12,       13, 14, 4,  10, kMissing, kMissing,
                                                     kMissing, kMissing, kMissing, 16, 17, 18, 19, 20};

constexpr const char *kLibrary = R"(/* uregs[] indices (x86-64), as Oracle's DTrace for Linux names them. */
inline int R_R15 = 0;
inline int R_R14 = 1;
inline int R_R13 = 2;
inline int R_R12 = 3;
inline int R_RBP = 4;
inline int R_RBX = 5;
inline int R_R11 = 6;
inline int R_R10 = 7;
inline int R_R9 = 8;
inline int R_R8 = 9;
inline int R_RAX = 10;
inline int R_RCX = 11;
inline int R_RDX = 12;
inline int R_RSI = 13;
inline int R_RDI = 14;
inline int R_ERR = 15;
inline int R_RIP = 16;
inline int R_CS = 17;
inline int R_RFL = 18;
inline int R_RSP = 19;
inline int R_SS = 20;
inline int R_DS = 21;
inline int R_ES = 22;
inline int R_FS = 23;
inline int R_GS = 24;
inline int R_EBX = R_GS + 1 + 0;
inline int R_ECX = R_GS + 1 + 1;
inline int R_EDX = R_GS + 1 + 2;
inline int R_ESI = R_GS + 1 + 3;
inline int R_EDI = R_GS + 1 + 4;
inline int R_EBP = R_GS + 1 + 5;
inline int R_EAX = R_GS + 1 + 6;
inline int R_EIP = R_GS + 1 + 12;
inline int R_EFL = R_GS + 1 + 14;
inline int R_ESP = R_GS + 1 + 15;
inline int R_PC = R_EIP;
inline int R_FP = R_EBP;
inline int R_SP = R_ESP;
inline int R_PS = R_EFL;
inline int R_R0 = R_EAX;
inline int R_R1 = R_EBX;
)";

// uregs[] from struct pt_regs in order (R_R15 .. R_SS); bit i of
// `missing_pt_regs`: pt_regs[i] is not known.
UserRegisters from_pt_regs(const uint64_t (&pt_regs)[kSegmentFirst], uint64_t missing_pt_regs) {
    UserRegisters regs;
    for (uint32_t i = 0; i < kSegmentFirst; ++i)
        regs.value[i] = pt_regs[i];
    regs.missing = missing_pt_regs;
    for (uint32_t i = kSegmentFirst; i < kSegmentFirst + kSegmentCount; ++i)
        regs.missing |= 1ull << i;
    for (uint32_t k = 0; k < kUregsCount - kAliasFirst; ++k) {
        if (kAliasOf[k] == kMissing || (missing_pt_regs >> kAliasOf[k] & 1))
            regs.missing |= 1ull << (kAliasFirst + k);
        else
            regs.value[kAliasFirst + k] = pt_regs[kAliasOf[k]];
    }
    return regs;
}

// The pt_regs index of each perf register (asm/perf_regs.h's order: ax bx
// cx dx si di bp sp ip flags cs ss ds es fs gs r8 .. r15); kMissing: none.
constexpr int kPtRegsOfPerf[PERF_REG_X86_R15 + 1] = {
    10, 5, 11, 12, 13, 14, 4, 19, 16, 18, 17, 20, kMissing, kMissing, kMissing, kMissing, 9, 8, 7, 6, 3, 2, 1, 0};

} // namespace

UserRegisters user_registers(const uprobe_tail &tail) {
    static_assert(UPROBE_NREGS == kSegmentFirst, "uprobe_reg is struct pt_regs in order, as R_R15 .. R_SS");
    uint64_t pt_regs[kSegmentFirst];
    for (uint32_t i = 0; i < UPROBE_NREGS; ++i)
        pt_regs[i] = tail.regs[i];
    return from_pt_regs(pt_regs, 0);
}

uint64_t perf_user_regs_mask() {
    uint64_t mask = 0;
    for (int perf = 0; perf <= PERF_REG_X86_R15; ++perf)
        if (kPtRegsOfPerf[perf] != kMissing)
            mask |= 1ull << perf;
    return mask;
}

UserRegisters user_registers_from_perf(uint64_t mask, std::span<const uint64_t> regs) {
    uint64_t pt_regs[kSegmentFirst] = {};
    uint64_t missing = (1ull << kSegmentFirst) - 1;
    size_t next = 0;
    for (int perf = 0; perf <= PERF_REG_X86_R15 && next < regs.size(); ++perf) {
        if (!(mask >> perf & 1))
            continue;
        const uint64_t value = regs[next++];
        if (kPtRegsOfPerf[perf] == kMissing)
            continue;
        pt_regs[kPtRegsOfPerf[perf]] = value;
        missing &= ~(1ull << kPtRegsOfPerf[perf]);
    }
    return from_pt_regs(pt_regs, missing);
}

void set_user_registers(dtrace_event_ctx &ctx, const UserRegisters &regs) {
    ctx.user_regs = regs.value;
    ctx.user_regs_count = kUregsCount;
    ctx.user_regs_missing = regs.missing;
}

const char *user_registers_d_library() {
    return kLibrary;
}

int register_user_registers_library(dtrace_host *host, const dtrace_host_ops *ops) {
    if (ops->struct_size < offsetof(dtrace_host_ops, register_library) + sizeof ops->register_library ||
        ops->register_library == nullptr) {
        ops->report_error(host, "this dtrace cannot register D libraries (the R_* names of uregs[])");
        return -1;
    }
    return ops->register_library(host, "linux/regs.d", kLibrary);
}

} // namespace dtrace::live
