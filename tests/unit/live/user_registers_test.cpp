// user_registers_test.cpp: uregs[] from a perf sample's user registers
// (profile-N), by Oracle's R_* indices.
#include <gtest/gtest.h>

#include <asm/perf_regs.h>

#include <vector>

#include "user_registers.h"

namespace dtrace::live {
namespace {

// Indices of user_registers.cpp's D library (R_RBP, R_RIP ...).
constexpr uint32_t kRbp = 4, kRax = 10, kErr = 15, kRip = 16, kCs = 17, kRfl = 18, kRsp = 19, kSs = 20, kDs = 21;
constexpr uint32_t kEax = 31, kEip = 37, kEfl = 39, kEsp = 40;

// A sample's registers as the kernel lists them: in the order of the mask's
// bits, each perf register's value its index + 100.
std::vector<uint64_t> sample_of(uint64_t mask) {
    std::vector<uint64_t> regs;
    for (int perf = 0; perf <= PERF_REG_X86_R15; ++perf)
        if (mask >> perf & 1)
            regs.push_back(100 + perf);
    return regs;
}

TEST(UserRegistersFromPerf, EveryRegisterTheMaskHolds) {
    const uint64_t mask = perf_user_regs_mask();
    EXPECT_EQ(mask & (1ull << PERF_REG_X86_DS), 0u) << "x86-64 refuses ds in a mask";
    const std::vector<uint64_t> regs = sample_of(mask);
    const UserRegisters u = user_registers_from_perf(mask, regs);
    EXPECT_EQ(u.value[kRip], 100u + PERF_REG_X86_IP);
    EXPECT_EQ(u.value[kRsp], 100u + PERF_REG_X86_SP);
    EXPECT_EQ(u.value[kRbp], 100u + PERF_REG_X86_BP);
    EXPECT_EQ(u.value[kRax], 100u + PERF_REG_X86_AX);
    EXPECT_EQ(u.value[kRfl], 100u + PERF_REG_X86_FLAGS);
    EXPECT_EQ(u.value[kCs], 100u + PERF_REG_X86_CS);
    EXPECT_EQ(u.value[kSs], 100u + PERF_REG_X86_SS);
    EXPECT_EQ(u.value[0], 100u + PERF_REG_X86_R15); // R_R15
    EXPECT_EQ(u.value[9], 100u + PERF_REG_X86_R8);  // R_R8
    // The 32-bit names read the register they name.
    EXPECT_EQ(u.value[kEip], u.value[kRip]);
    EXPECT_EQ(u.value[kEsp], u.value[kRsp]);
    EXPECT_EQ(u.value[kEfl], u.value[kRfl]);
    EXPECT_EQ(u.value[kEax], u.value[kRax]);
    // No orig_rax nor segment register in a sample.
    EXPECT_TRUE(u.missing >> kErr & 1);
    EXPECT_TRUE(u.missing >> kDs & 1);
    EXPECT_FALSE(u.missing >> kRip & 1);
    EXPECT_FALSE(u.missing >> kEip & 1);
}

TEST(UserRegistersFromPerf, ARegisterTheMaskLacksIsMissing) {
    const uint64_t mask = perf_user_regs_mask() & ~(1ull << PERF_REG_X86_FLAGS);
    const UserRegisters u = user_registers_from_perf(mask, sample_of(mask));
    EXPECT_TRUE(u.missing >> kRfl & 1);
    EXPECT_TRUE(u.missing >> kEfl & 1);
    EXPECT_EQ(u.value[kCs], 100u + PERF_REG_X86_CS); // the registers after it keep their places
}

TEST(UserRegistersFromPerf, FewerValuesThanTheMaskLeavesTheRestMissing) {
    const uint64_t mask = perf_user_regs_mask();
    std::vector<uint64_t> regs = sample_of(mask);
    regs.resize(2); // ax, bx
    const UserRegisters u = user_registers_from_perf(mask, regs);
    EXPECT_EQ(u.value[kRax], 100u + PERF_REG_X86_AX);
    EXPECT_TRUE(u.missing >> kRip & 1);
}

} // namespace
} // namespace dtrace::live
