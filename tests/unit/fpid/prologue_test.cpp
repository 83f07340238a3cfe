// prologue_test.cpp: which prologues a 5-byte jump may replace, and how the
// displaced instructions are relocated (hook/prologue.h).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "prologue.h"

namespace {

constexpr uint64_t kAddress = 0x401000;

struct Planned {
    int status;
    fpid_plan plan;
};

// `code`: the function (its first `size` bytes, all of them when 0) and what follows it.
Planned plan(const std::vector<uint8_t> &code, size_t size = 0) {
    Planned p{};
    p.status = fpid_plan_hook(code.data(), size ? size : code.size(), code.size(), kAddress, &p.plan);
    return p;
}

std::vector<uint8_t> relocate(const std::vector<uint8_t> &code, const fpid_plan &plan, uint64_t to) {
    std::vector<uint8_t> out(64);
    char why[200];
    int n = fpid_relocate(code.data(), &plan, kAddress, to, out.data(), out.size(), why, sizeof why);
    EXPECT_GE(n, 0) << why;
    out.resize(n < 0 ? 0 : static_cast<size_t>(n));
    return out;
}

std::vector<uint8_t> le32(int64_t value) {
    uint32_t v = static_cast<uint32_t>(static_cast<int32_t>(value));
    return {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
}

std::vector<uint8_t> cat(std::vector<std::vector<uint8_t>> parts) {
    std::vector<uint8_t> out;
    for (auto &p : parts)
        out.insert(out.end(), p.begin(), p.end());
    return out;
}

TEST(FpidPrologue, FramedPrologueIsCopiedWhole) {
    // push %rbp; mov %rsp,%rbp; sub $0x10,%rsp; leave; ret
    const std::vector<uint8_t> code = {0x55, 0x48, 0x89, 0xe5, 0x48, 0x83, 0xec, 0x10, 0xc9, 0xc3};
    Planned p = plan(code);
    ASSERT_EQ(p.status, 0) << p.plan.why;
    EXPECT_EQ(p.plan.length, 8u);
    EXPECT_EQ(p.plan.live_length, 8u);
    EXPECT_FALSE(p.plan.ends_flow);
    EXPECT_EQ(relocate(code, p.plan, 0x7000000), std::vector<uint8_t>(code.begin(), code.begin() + 8));
}

TEST(FpidPrologue, TinyFunctionSpillsIntoPadding) {
    // lea 1(%rdi),%eax; ret, then int3 padding before the next function.
    const std::vector<uint8_t> code = {0x8d, 0x47, 0x01, 0xc3, 0xcc, 0xcc, 0xcc, 0xcc};
    Planned p = plan(code, 4);
    ASSERT_EQ(p.status, 0) << p.plan.why;
    EXPECT_EQ(p.plan.length, 5u);
    EXPECT_EQ(p.plan.live_length, 4u);
    EXPECT_TRUE(p.plan.ends_flow); // nothing to jump back to
}

TEST(FpidPrologue, TinyFunctionWithoutPaddingIsRefused) {
    // The next function starts right after the ret.
    Planned p = plan({0x8d, 0x47, 0x01, 0xc3, 0x55, 0x48, 0x89, 0xe5}, 4);
    EXPECT_NE(p.status, 0);
    EXPECT_NE(std::string(p.plan.why).find("not padding"), std::string::npos) << p.plan.why;
    Planned at_end = plan({0x8d, 0x47, 0x01, 0xc3}, 4); // nothing at all after it
    EXPECT_NE(at_end.status, 0);
}

TEST(FpidPrologue, BranchIntoReplacedBytesIsRefused) {
    // xor %eax,%eax; inc %eax; inc %eax; cmp $10,%eax; jl -7 (to +4: inside the 6 replaced bytes); ret
    Planned p = plan({0x31, 0xc0, 0xff, 0xc0, 0xff, 0xc0, 0x83, 0xf8, 0x0a, 0x7c, 0xf9, 0xc3});
    EXPECT_NE(p.status, 0);
    EXPECT_NE(std::string(p.plan.why).find("jumps to +0x4"), std::string::npos) << p.plan.why;
}

TEST(FpidPrologue, BranchToTheStartIsAllowed) {
    // The same loop back to +0 (the hook's own start): jl -11.
    Planned p = plan({0x31, 0xc0, 0xff, 0xc0, 0xff, 0xc0, 0x83, 0xf8, 0x0a, 0x7c, 0xf5, 0xc3});
    EXPECT_EQ(p.status, 0) << p.plan.why;
}

TEST(FpidPrologue, ShortOnlyBranchIsRefused) {
    // loop -2: no form reaches from a trampoline.
    Planned p = plan({0xe2, 0xfe, 0x90, 0x90, 0x90, 0xc3});
    EXPECT_NE(p.status, 0);
    EXPECT_NE(std::string(p.plan.why).find("loop"), std::string::npos) << p.plan.why;
}

TEST(FpidPrologue, RipRelativeOperandIsReencoded) {
    // mov 0x10(%rip),%rax; ret
    const std::vector<uint8_t> code = {0x48, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00, 0xc3};
    Planned p = plan(code);
    ASSERT_EQ(p.status, 0) << p.plan.why;
    EXPECT_EQ(p.plan.length, 7u);
    const uint64_t to = kAddress + 0x10000000;
    const uint64_t target = kAddress + 7 + 0x10;
    EXPECT_EQ(relocate(code, p.plan, to), cat({{0x48, 0x8b, 0x05}, le32(int64_t(target) - int64_t(to + 7))}));
}

TEST(FpidPrologue, ShortConditionalJumpBecomesNear) {
    // test %edi,%edi; je +0x10; xor %eax,%eax ...
    const std::vector<uint8_t> code = {0x85, 0xff, 0x74, 0x10, 0x31, 0xc0, 0xc3, 0x90, 0x90, 0x90, 0x90,
                                       0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0xc3};
    Planned p = plan(code);
    ASSERT_EQ(p.status, 0) << p.plan.why;
    EXPECT_EQ(p.plan.length, 6u);
    const uint64_t to = kAddress - 0x20000000;
    const uint64_t target = kAddress + 4 + 0x10;
    EXPECT_EQ(relocate(code, p.plan, to),
              cat({{0x85, 0xff, 0x0f, 0x84}, le32(int64_t(target) - int64_t(to + 8)), {0x31, 0xc0}}));
}

std::vector<uint8_t> le64(uint64_t value) {
    std::vector<uint8_t> bytes(8);
    std::memcpy(bytes.data(), &value, 8);
    return bytes;
}

TEST(FpidPrologue, CallReturnsToTheFunction) {
    // call +0x100; ret: the callee must return to the function (where the
    // unwinder finds unwind information), not to the trampoline: push the
    // return address, jump to the target.
    const std::vector<uint8_t> code = cat({{0xe8}, le32(0x100), {0xc3}});
    Planned p = plan(code);
    ASSERT_EQ(p.status, 0) << p.plan.why;
    const uint64_t to = kAddress + 0x1000;
    EXPECT_EQ(relocate(code, p.plan, to), cat({{0x49, 0xbb},
                                               le64(kAddress + 5),
                                               {0x41, 0x53, 0xe9},
                                               le32(int64_t(kAddress + 5 + 0x100) - int64_t(to + 12 + 5))}));
}

TEST(FpidPrologue, IndirectCallThroughRipReturnsToTheFunction) {
    // sub $8,%rsp; call *0x100(%rip): the jump reads the same slot.
    const std::vector<uint8_t> code = {0x48, 0x83, 0xec, 0x08, 0xff, 0x15, 0x00, 0x01, 0x00, 0x00, 0xc3};
    Planned p = plan(code);
    ASSERT_EQ(p.status, 0) << p.plan.why;
    EXPECT_EQ(p.plan.length, 10u);
    const uint64_t to = kAddress + 0x1000;
    const uint64_t slot = kAddress + 10 + 0x100;
    EXPECT_EQ(relocate(code, p.plan, to), cat({{0x48, 0x83, 0xec, 0x08, 0x49, 0xbb},
                                               le64(kAddress + 10),
                                               {0x41, 0x53, 0xff, 0x25},
                                               le32(int64_t(slot) - int64_t(to + 4 + 12 + 6))}));
}

TEST(FpidPrologue, CallThroughTheStackRunsFromTheTrampoline) {
    // call *8(%rsp): a push before it would move what it reads; it stays a call.
    const std::vector<uint8_t> code = {0xff, 0x54, 0x24, 0x08, 0x90, 0xc3};
    Planned p = plan(code);
    ASSERT_EQ(p.status, 0) << p.plan.why;
    EXPECT_EQ(relocate(code, p.plan, kAddress + 0x1000), std::vector<uint8_t>({0xff, 0x54, 0x24, 0x08, 0x90}));
}

TEST(FpidPrologue, OutOfReachIsRefusedAtRelocation) {
    const std::vector<uint8_t> code = {0x48, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00, 0xc3};
    Planned p = plan(code);
    ASSERT_EQ(p.status, 0);
    uint8_t out[64];
    char why[200];
    EXPECT_LT(
        fpid_relocate(code.data(), &p.plan, kAddress, kAddress + 0x100000000ull, out, sizeof out, why, sizeof why), 0);
    EXPECT_NE(std::string(why).find("cannot reach"), std::string::npos) << why;
}

} // namespace
