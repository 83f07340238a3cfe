// arg_spec_test.cpp: USDT argument specs as GCC and clang write them.
#include "arg_spec.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace dtrace::usdt {
namespace {

TEST(ArgSpec, RegistersOfEveryWidth) {
    auto specs = parse_arg_specs("8@%rax -4@%ebp 2@%si -1@%r9b 8@%r15");
    ASSERT_TRUE(specs);
    ASSERT_EQ(specs->size(), 5u);
    EXPECT_EQ((*specs)[0].kind, ArgSpec::Kind::Register);
    EXPECT_EQ((*specs)[0].reg, UPROBE_REG_RAX);
    EXPECT_EQ((*specs)[0].size, 8);
    EXPECT_FALSE((*specs)[0].is_signed);
    EXPECT_EQ((*specs)[1].reg, UPROBE_REG_RBP);
    EXPECT_EQ((*specs)[1].size, 4);
    EXPECT_TRUE((*specs)[1].is_signed);
    EXPECT_EQ((*specs)[2].reg, UPROBE_REG_RSI);
    EXPECT_EQ((*specs)[3].reg, UPROBE_REG_R9);
    EXPECT_EQ((*specs)[3].size, 1);
    EXPECT_EQ((*specs)[4].reg, UPROBE_REG_R15);
}

TEST(ArgSpec, MemoryAndConstants) {
    // python3.11's gc__start, libstdc++'s catch, a constant GCC folded.
    auto specs = parse_arg_specs("-4@112(%rsp) 8@-80(%rbx) 8@(%rdi) -4@$-5 8@$4886718345 8@$0x10");
    ASSERT_TRUE(specs);
    ASSERT_EQ(specs->size(), 6u);
    EXPECT_EQ((*specs)[0].kind, ArgSpec::Kind::Memory);
    EXPECT_EQ((*specs)[0].reg, UPROBE_REG_RSP);
    EXPECT_EQ((*specs)[0].value, 112);
    EXPECT_EQ((*specs)[1].value, -80);
    EXPECT_EQ((*specs)[1].reg, UPROBE_REG_RBX);
    EXPECT_EQ((*specs)[2].kind, ArgSpec::Kind::Memory);
    EXPECT_EQ((*specs)[2].value, 0);
    EXPECT_EQ((*specs)[3].kind, ArgSpec::Kind::Constant);
    EXPECT_EQ((*specs)[3].value, -5);
    EXPECT_EQ((*specs)[4].value, 4886718345);
    EXPECT_EQ((*specs)[5].value, 16);
}

TEST(ArgSpec, FormsNotReadAreKeptAsUnsupported) {
    auto specs = parse_arg_specs("8@counter(%rip) 4@(%rax,%rbx,4) 8@%xmm0 -4@%eax");
    ASSERT_TRUE(specs);
    ASSERT_EQ(specs->size(), 4u);
    EXPECT_EQ((*specs)[0].kind, ArgSpec::Kind::Unsupported);
    EXPECT_EQ((*specs)[1].kind, ArgSpec::Kind::Unsupported);
    EXPECT_EQ((*specs)[2].kind, ArgSpec::Kind::Unsupported);
    EXPECT_EQ((*specs)[3].kind, ArgSpec::Kind::Register);
    EXPECT_EQ(to_uprobe_arg((*specs)[0]).kind, UPROBE_USDT_NONE);
}

TEST(ArgSpec, MalformedListsAreRefused) {
    EXPECT_FALSE(parse_arg_specs("%rax"));
    EXPECT_FALSE(parse_arg_specs("3@%rax"));
    EXPECT_FALSE(parse_arg_specs("-@%rax"));
    EXPECT_FALSE(parse_arg_specs("16@%rax"));
    auto none = parse_arg_specs("  ");
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->empty());
}

TEST(ArgSpec, TypesAndTheProgramsLayout) {
    auto specs = parse_arg_specs("-4@%eax 8@%rdi -2@8(%rsp)");
    ASSERT_TRUE(specs);
    EXPECT_EQ(arg_type_name((*specs)[0]), "int32_t");
    EXPECT_EQ(arg_type_name((*specs)[1]), "uint64_t");
    const uprobe_usdt_arg memory = to_uprobe_arg((*specs)[2]);
    EXPECT_EQ(memory.kind, UPROBE_USDT_MEMORY);
    EXPECT_EQ(memory.reg, UPROBE_REG_RSP);
    EXPECT_EQ(memory.value, 8);
    EXPECT_EQ(memory.size, 2);
    EXPECT_EQ(memory.is_signed, 1);
}

TEST(ArgSpec, MemoryOperandsPastTheSixthFromTheStackCopy) {
    // Eight arguments: the 7th on the stack above rsp, the 8th at rbp-relative
    // memory that falls inside the copy, then one outside it.
    auto specs = parse_arg_specs("8@%rdi 8@%rsi 8@%rdx 8@%rcx 8@%r8 8@%r9 -4@300(%rsp) 2@-8(%rbp) 8@8000(%rsp)");
    ASSERT_TRUE(specs);
    EXPECT_EQ(stack_window_for(*specs, 8), 512u); // 300 + 4 bytes: the 512-byte copy
    EXPECT_EQ(stack_window_for(*specs, 9), 8192u);
    EXPECT_EQ(stack_window_for(*specs, 6), 0u); // none past the sixth

    uprobe_tail tail{};
    tail.regs[UPROBE_REG_RSP] = 0x7fff0000;
    tail.regs[UPROBE_REG_RBP] = 0x7fff0100;
    std::vector<uint8_t> stack(512);
    const int32_t seventh = -5;
    std::memcpy(stack.data() + 300, &seventh, 4);
    const uint16_t eighth = 0xbeef;
    std::memcpy(stack.data() + 0x100 - 8, &eighth, 2);
    EXPECT_EQ(static_cast<int64_t>(argument_from_tail((*specs)[6], tail, stack)), -5);
    EXPECT_EQ(argument_from_tail((*specs)[7], tail, stack), 0xbeefu);
    EXPECT_EQ(argument_from_tail((*specs)[8], tail, stack), 0u); // beyond the copy
    tail.regs[UPROBE_REG_RBP] = 0x7ffe0000;                      // below rsp: not in the copy
    EXPECT_EQ(argument_from_tail((*specs)[7], tail, stack), 0u);
}

} // namespace
} // namespace dtrace::usdt
