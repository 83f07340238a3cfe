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

// The registers of a sample taken with kPerfRegsMask (in the mask's order).
inline UserRegs from_perf(std::span<const uint64_t> regs) {
    // DWARF number of each perf register, in perf's order (-1: not used).
    static constexpr int kDwarfOf[PERF_REG_X86_R15 + 1] = {0,  3,  2,  1,  4, 5, 6,  7,  16, -1, -1, -1,
                                                           -1, -1, -1, -1, 8, 9, 10, 11, 12, 13, 14, 15};
    UserRegs out;
    size_t next = 0;
    for (int perf = 0; perf <= PERF_REG_X86_R15 && next < regs.size(); perf++) {
        if (!(kPerfRegsMask & (1ull << perf)))
            continue;
        const int dwarf = kDwarfOf[perf];
        out.value[dwarf] = regs[next++];
        out.known[dwarf] = true;
    }
    return out;
}

} // namespace dtrace::live::stacks
