// unwind_test.cpp: the CFI unwinder and the user symbolizer on a stack this
// test captures inside libc's qsort (code without frame pointers on both
// sides), named through this process's own maps and ELF files.
#include "captured_stack.h"
#include "stack_symbols.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace dtrace::live::stacks {
namespace {

std::string name_of(StackSymbols &symbols, int64_t pid, uint64_t address, bool with_offset = false) {
    dtrace_symbol out{};
    out.struct_size = sizeof out;
    if (!symbols.lookup(DTRACE_SYMBOL_USER, pid, address, &out))
        return "?";
    std::string name = std::string(out.module) + "`" + (out.function ? out.function : "?");
    if (with_offset)
        name += "+" + std::to_string(out.offset);
    return name;
}

std::vector<uint64_t> unwind_captured(StackSymbols &symbols, const captured_stack &captured) {
    UserRegs regs;
    for (int r : {3, 6, 7, 12, 13, 14, 15, 16}) {
        regs.value[r] = captured.regs[r];
        regs.known[r] = true;
    }
    std::vector<uint64_t> pcs(64);
    StackCopy copy{captured.regs[kDwarfSp], {captured.bytes, captured.size}};
    pcs.resize(symbols.unwind_user(getpid(), regs, copy, pcs));
    return pcs;
}

TEST(Unwind, ReachesTheCallerThroughLibcWithoutFramePointers) {
    static captured_stack captured;
    capture_in_qsort(&captured);
    ASSERT_GT(captured.size, 0u);
    StackSymbols symbols;
    std::vector<uint64_t> pcs = unwind_captured(symbols, captured);
    std::vector<std::string> names;
    for (uint64_t pc : pcs)
        names.push_back(name_of(symbols, getpid(), pc));
    ASSERT_GE(names.size(), 4u);
    const std::string self = "live_stacks_tests`";
    EXPECT_EQ(names[0], self + "compare_and_capture");
    // qsort's frames (msort_with_tmp, qsort_r, ...) are libc's, then the caller.
    size_t caller = 1;
    while (caller < names.size() && names[caller].rfind("libc.so.6`", 0) == 0)
        caller++;
    EXPECT_GE(caller, 2u) << "no libc frame between the comparison and its caller";
    ASSERT_LT(caller, names.size());
    EXPECT_EQ(names[caller], self + "capture_in_qsort");
    // And on into the test body, through the test framework, to main.
    bool reached_main = false;
    for (const std::string &name : names)
        reached_main |= name == self + "main";
    EXPECT_TRUE(reached_main) << "the unwinder stopped before main";
}

TEST(Unwind, StopsAtTheEndOfTheCopiedStack) {
    static captured_stack captured;
    capture_in_qsort(&captured);
    StackSymbols symbols;
    const size_t full = unwind_captured(symbols, captured).size();
    captured.size = 64; // too little for any saved register above the first frame
    const size_t cut = unwind_captured(symbols, captured).size();
    EXPECT_LT(cut, full);
    EXPECT_GE(cut, 1u);
}

TEST(Unwind, NoKnownCodeGivesTheSampledPcOnly) {
    StackSymbols symbols;
    UserRegs regs;
    regs.value[kDwarfIp] = 0x10; // nothing is mapped there
    regs.known[kDwarfIp] = true;
    uint64_t pcs[8];
    EXPECT_EQ(symbols.unwind_user(getpid(), regs, StackCopy{}, pcs), 1u);
    EXPECT_EQ(pcs[0], 0x10u);
}

TEST(Symbols, NamesFunctionsWithOffsetsAndLibraries) {
    StackSymbols symbols;
    const uint64_t function = reinterpret_cast<uint64_t>(captured_stack_functions[1]);
    EXPECT_EQ(name_of(symbols, getpid(), function, true), "live_stacks_tests`capture_in_qsort+0");
    EXPECT_EQ(name_of(symbols, getpid(), function + 5, true), "live_stacks_tests`capture_in_qsort+5");
    EXPECT_EQ(name_of(symbols, getpid(), reinterpret_cast<uint64_t>(&qsort)), "libc.so.6`qsort");
    dtrace_symbol out{};
    out.struct_size = sizeof out;
    EXPECT_FALSE(symbols.lookup(DTRACE_SYMBOL_USER, getpid(), 0x10, &out)) << "nothing is mapped at 0x10";
}

// ld.so's entry frame is code only an assembly label names (_dl_start_user,
// untyped, from its debug file): named by it, not as a bare address.
TEST(Symbols, NamesCodeOnlyAnAssemblyLabelCovers) {
    StackSymbols symbols;
    const uint64_t label = reinterpret_cast<uint64_t>(&captured_stack_label);
    EXPECT_EQ(name_of(symbols, getpid(), label + 1, true), "live_stacks_tests`captured_stack_label+1");
}

TEST(Symbols, AProcessThatExitedStillSymbolizes) {
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        pause();
        _exit(0);
    }
    StackSymbols symbols;
    symbols.maps().ensure(child); // as at the child's first sample
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    // The child was a fork of this process: the same code at the same address.
    const uint64_t function = reinterpret_cast<uint64_t>(captured_stack_functions[0]);
    EXPECT_EQ(name_of(symbols, child, function), "live_stacks_tests`compare_and_capture");
}

TEST(Symbols, MappingsFromRecordsNameAnExecdProcess) {
    StackSymbols symbols;
    const int64_t pid = 999999999; // no such process: only the records tell
    symbols.maps().exec(pid);
    for (const Mapping &m : parse_maps("00400000-00500000 r-xp 00000000 00:00 0 /proc/self/exe\n"))
        symbols.maps().add(pid, m);
    dtrace_symbol out{};
    out.struct_size = sizeof out;
    ASSERT_TRUE(symbols.lookup(DTRACE_SYMBOL_USER, pid, 0x400010, &out));
    EXPECT_STREQ(out.module, "exe");
    EXPECT_FALSE(symbols.lookup(DTRACE_SYMBOL_USER, pid, 0x500010, &out));
}

} // namespace
} // namespace dtrace::live::stacks
