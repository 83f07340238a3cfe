// Tests of the kernel memory fetch planner (engine/memory_fetch_plan.h):
// which loads of a clause's DIF a kernel probe's plugin can make at the event.
#include "engine/memory_fetch_plan.h"

#include "dif/assembler.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace dtrace;

namespace {

dif::Difo assembled(const std::string &text) {
    dif::AsmResult r = dif::assemble(text);
    EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors.front().to_string());
    return r.difo;
}

std::vector<dtrace_memory_fetch> plan_of(const std::vector<std::string> &difos,
                                         std::vector<uint32_t> native_index = {}) {
    engine::MemoryFetchPlanner planner(std::move(native_index), 256);
    planner.begin_clause();
    for (const std::string &text : difos)
        planner.scan(assembled(text));
    return planner.fetches();
}

void expect_fetch(const dtrace_memory_fetch &f, uint8_t base, uint16_t index, int64_t offset, uint32_t length,
                  bool string) {
    EXPECT_EQ(f.base, base);
    EXPECT_EQ(f.index, index);
    EXPECT_EQ(f.offset, offset);
    EXPECT_EQ(f.length, length);
    EXPECT_EQ((f.flags & DTRACE_FETCH_STRING) != 0, string);
}

} // namespace

// stringof(args[0]->f_path.dentry->d_name.name): two pointer loads, then the string.
TEST(MemoryFetchPlan, ChainOfPointersEndingInAString) {
    const auto fetches = plan_of({"DIFO returns string\n"
                                  "setx %r1, 0\n"
                                  "ldga %r2, args, %r1\n"
                                  "setx %r3, 0x10\n"
                                  "add %r2, %r2, %r3\n"
                                  "ldx %r2, [%r2+8]\n"
                                  "ldx %r2, [%r2+0x28]\n"
                                  "ret %r2\n"},
                                 {3}); // args[0] is native argument 3
    ASSERT_EQ(fetches.size(), 3u);
    expect_fetch(fetches[0], DTRACE_FETCH_ARG, 3, 0x18, 8, false);
    expect_fetch(fetches[1], DTRACE_FETCH_POINTER, 0, 0x28, 8, false);
    expect_fetch(fetches[2], DTRACE_FETCH_POINTER, 1, 0, 256, true);
}

// curthread->comm as a string, curthread->tgid, and `jiffies (a constant address).
TEST(MemoryFetchPlan, CurthreadMembersAndAbsoluteSymbols) {
    const auto fetches = plan_of({"DIFO returns string\n"
                                  "ldgv %r1, curthread\n"
                                  "setx %r2, 0x740\n"
                                  "add %r1, %r1, %r2\n"
                                  "ret %r1\n",
                                  "ldgv %r1, curthread\n"
                                  "ldsw %r1, [%r1+0x5a0]\n"
                                  "setx %r2, 0xffffffff82a05000\n"
                                  "ldx %r3, [%r2]\n"
                                  "add %r1, %r1, %r3\n"
                                  "ret %r1\n"});
    ASSERT_EQ(fetches.size(), 3u);
    expect_fetch(fetches[0], DTRACE_FETCH_CURTHREAD, 0, 0x740, 256, true);
    expect_fetch(fetches[1], DTRACE_FETCH_CURTHREAD, 0, 0x5a0, 4, false);
    expect_fetch(fetches[2], DTRACE_FETCH_ABSOLUTE, 0, static_cast<int64_t>(0xffffffff82a05000ull), 8, false);
}

// print(*args[0]) records the whole struct; the same load twice is one fetch.
TEST(MemoryFetchPlan, ByReferenceValuesAndRepeatedLoads) {
    const auto fetches = plan_of({"DIFO returns byref:232\n"
                                  "ldgv %r1, arg0\n"
                                  "ret %r1\n",
                                  "ldgv %r1, arg0\n"
                                  "ldx %r2, [%r1+0x18]\n"
                                  "ldx %r3, [%r1+0x18]\n"
                                  "ret %r3\n"});
    ASSERT_EQ(fetches.size(), 2u);
    expect_fetch(fetches[0], DTRACE_FETCH_ARG, 0, 0, 232, false);
    expect_fetch(fetches[1], DTRACE_FETCH_ARG, 0, 0x18, 8, false);
}

// A chain kept in a clause-local variable goes on in the clause's next
// DIFO; a global variable's value is not followed (it may be another
// event's), nor a computed index.
TEST(MemoryFetchPlan, ClauseLocalsCarryChainsGlobalsDoNot) {
    const std::string locals = "\nNAME ID KND SCP FLAG TYPE\nf 100 scl loc r/w int64\ng 101 scl glb r/w int64\n";
    const auto fetches = plan_of({"ldgv %r1, arg1\n"
                                  "ldx %r1, [%r1+0x20]\n"
                                  "stlv f, %r1\n"
                                  "stgv g, %r1\n"
                                  "ret %r1\n" +
                                      locals,
                                  "ldlv %r1, f\n"
                                  "ldub %r2, [%r1+4]\n"
                                  "ldgv %r3, g\n"
                                  "ldx %r4, [%r3+8]\n"
                                  "ldgv %r5, arg2\n"
                                  "ldga %r6, args, %r5\n"
                                  "ldx %r6, [%r6]\n"
                                  "ret %r2\n" +
                                      locals});
    ASSERT_EQ(fetches.size(), 2u);
    expect_fetch(fetches[0], DTRACE_FETCH_ARG, 1, 0x20, 8, false);
    expect_fetch(fetches[1], DTRACE_FETCH_POINTER, 0, 4, 1, false);
}

// A register overwritten by an unrelated value no longer stands for the chain.
TEST(MemoryFetchPlan, OverwrittenRegistersAreForgotten) {
    const auto fetches = plan_of({"ldgv %r1, arg0\n"
                                  "ldgv %r2, pid\n"
                                  "mul %r1, %r1, %r2\n"
                                  "ldx %r3, [%r1]\n"
                                  "ret %r3\n"});
    EXPECT_TRUE(fetches.empty());
}

// Strings compared or pushed as keys are fetched whole.
TEST(MemoryFetchPlan, StringsComparedAndPushed) {
    const auto fetches = plan_of({"ldgv %r1, arg0\n"
                                  "ldx %r1, [%r1+0x10]\n"
                                  "sets %r2, \"passwd\"\n"
                                  "scmp %r3, %r1, %r2\n"
                                  "ldgv %r4, arg1\n"
                                  "pushts %r4\n"
                                  "call %r5, strlen\n"
                                  "ret %r3\n"});
    ASSERT_EQ(fetches.size(), 3u);
    expect_fetch(fetches[0], DTRACE_FETCH_ARG, 0, 0x10, 8, false);
    expect_fetch(fetches[1], DTRACE_FETCH_POINTER, 0, 0, 256, true);
    expect_fetch(fetches[2], DTRACE_FETCH_ARG, 1, 0, 256, true);
}

// At most DTRACE_USAGE_MAX_FETCHES; a chain past the limit is dropped whole.
TEST(MemoryFetchPlan, AtMostTheSdkLimit) {
    std::string code = "ldgv %r1, arg0\n";
    for (int i = 0; i < DTRACE_USAGE_MAX_FETCHES + 4; ++i)
        code += "ldx %r2, [%r1+" + std::to_string(8 * i) + "]\n";
    code += "ldx %r3, [%r2+8]\nret %r3\n";
    const auto fetches = plan_of({code});
    ASSERT_EQ(fetches.size(), size_t(DTRACE_USAGE_MAX_FETCHES));
    for (const dtrace_memory_fetch &f : fetches)
        EXPECT_EQ(f.base, DTRACE_FETCH_ARG);
}

// copyin(arg0 + 8, 16) and the pointer read from its bytes at 8, followed
// by copyinstr(); copyinstr(arg1) of a bare argument is probe_usage's
// string_args, not a fetch; copyinstr(arg2 + 4, 10) reads 11 bytes.
TEST(MemoryFetchPlan, CopyinAndCopyinstrOfTheTargetsMemory) {
    const auto fetches = plan_of({"DIFO returns string\n"
                                  "ldgv %r1, arg0\n"
                                  "setx %r2, 8\n"
                                  "add %r1, %r1, %r2\n"
                                  "setx %r3, 16\n"
                                  "sext %r3, %r3, 32\n"
                                  "flushts\n"
                                  "pushtv %r1, 8\n"
                                  "pushtv %r3, 8\n"
                                  "call %r4, copyin\n"
                                  "ldx %r5, [%r4+8]\n"
                                  "ldsw %r6, [%r4]\n"
                                  "flushts\n"
                                  "pushtv %r5, 8\n"
                                  "call %r5, copyinstr\n"
                                  "ldgv %r1, arg1\n"
                                  "flushts\n"
                                  "pushtv %r1, 8\n"
                                  "call %r6, copyinstr\n"
                                  "ldgv %r1, arg2\n"
                                  "setx %r2, 4\n"
                                  "add %r1, %r1, %r2\n"
                                  "setx %r3, 10\n"
                                  "flushts\n"
                                  "pushtv %r1, 8\n"
                                  "pushtv %r3, 8\n"
                                  "call %r6, copyinstr\n"
                                  "ret %r5\n"});
    ASSERT_EQ(fetches.size(), 4u);
    expect_fetch(fetches[0], DTRACE_FETCH_ARG, 0, 8, 16, false);
    expect_fetch(fetches[1], DTRACE_FETCH_ARG, 0, 16, 8, false);
    expect_fetch(fetches[2], DTRACE_FETCH_POINTER, 1, 0, 256, true);
    expect_fetch(fetches[3], DTRACE_FETCH_ARG, 2, 4, 11, true);
}
