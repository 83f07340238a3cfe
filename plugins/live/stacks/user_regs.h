// user_regs.h: the user registers a sample carries, in DWARF's numbering.
//
// The sampling events ask the kernel for the registers the unwinder needs
// (PERF_SAMPLE_REGS_USER with kPerfRegsMask); the kernel lists them in the
// order of the mask's bits, and from_perf() puts each where x86-64's DWARF
// numbering has it (rax rdx rcx rbx rsi rdi rbp rsp r8-r15, then the return
// address column, which holds the instruction pointer).
#pragma once

#include <asm/perf_regs.h>

#include <array>
#include <cstdint>
#include <span>

namespace dtrace::live::stacks {

inline constexpr int kDwarfRegisterCount = 17;
inline constexpr int kDwarfSp = 7;
inline constexpr int kDwarfIp = 16; // the return address column

struct UserRegs {
    std::array<uint64_t, kDwarfRegisterCount> value{};
    std::array<bool, kDwarfRegisterCount> known{};
};

inline constexpr uint64_t kPerfRegsMask =
    (1ull << PERF_REG_X86_AX) | (1ull << PERF_REG_X86_BX) | (1ull << PERF_REG_X86_CX) | (1ull << PERF_REG_X86_DX) |
    (1ull << PERF_REG_X86_SI) | (1ull << PERF_REG_X86_DI) | (1ull << PERF_REG_X86_BP) | (1ull << PERF_REG_X86_SP) |
    (1ull << PERF_REG_X86_IP) | (0xffull << PERF_REG_X86_R8);

// The registers of a sample taken with `mask` (in the mask's order), which
// holds kPerfRegsMask's registers and may hold others (the unwinder skips them).
inline UserRegs from_perf(std::span<const uint64_t> regs, uint64_t mask = kPerfRegsMask) {
    // DWARF number of each perf register, in perf's order (-1: not used).
    static constexpr int kDwarfOf[PERF_REG_X86_R15 + 1] = {0,  3,  2,  1,  4, 5, 6,  7,  16, -1, -1, -1,
                                                           -1, -1, -1, -1, 8, 9, 10, 11, 12, 13, 14, 15};
    UserRegs out;
    size_t next = 0;
    for (int perf = 0; perf <= PERF_REG_X86_R15 && next < regs.size(); perf++) {
        if (!(mask & (1ull << perf)))
            continue;
        const uint64_t value = regs[next++];
        const int dwarf = kDwarfOf[perf];
        if (dwarf < 0)
            continue;
        out.value[dwarf] = value;
        out.known[dwarf] = true;
    }
    return out;
}

// The registers of a uprobe or of a thread's entry into the kernel, as the
// kernel's struct pt_regs orders them on x86-64 (r15 r14 r13 r12 rbp rbx r11
// r10 r9 r8 rax rcx rdx rsi rdi orig_rax rip cs eflags rsp ss: the order of
// bpf/uprobe_record.h's uprobe_reg).
inline UserRegs from_pt_regs(const unsigned long long (&regs)[21]) { // __u64 regs[UPROBE_NREGS]
    static constexpr int kDwarfOf[21] = {15, 14, 13, 12, 6, 3, 11, 10, 9, 8, 0, 2, 1, 4, 5, -1, 16, -1, -1, 7, -1};
    UserRegs out;
    for (size_t i = 0; i < std::size(regs); ++i) {
        if (kDwarfOf[i] >= 0) {
            out.value[kDwarfOf[i]] = regs[i];
            out.known[kDwarfOf[i]] = true;
        }
    }
    return out;
}

} // namespace dtrace::live::stacks
