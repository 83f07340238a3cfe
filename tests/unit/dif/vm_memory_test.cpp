// VM memory: loads and stores through the checked accessor, scratch
// allocation and copies, environment regions, traced-process loads and the
// tuple stack.
#include "dif_test_util.h"

#include <gtest/gtest.h>

#include <cstring>

namespace dtrace::dif {
namespace {

using test::Runner;

TEST(VmMemory, StoresAndLoadsInScratchWithEveryWidth) {
    Runner r;
    const char *text = "setx %r1, 16\nallocs %r2, %r1\n"
                       "setx %r3, 0x8877665544332211\nstx [%r2], %r3\n"
                       "setx %r3, 0xf0\nstb [%r2+8], %r3\n"
                       "setx %r3, 0xfffe\nsth [%r2+10], %r3\n"
                       "setx %r3, 0x80000001\nstw [%r2+12], %r3\n"
                       "ldx %r4, [%r2]\n"
                       "ldsb %r5, [%r2+8]\nldub %r6, [%r2+8]\n"
                       "ldsh %r7, [%r2+10]\nadd %r4, %r4, %r7\n"
                       "lduh %r7, [%r2+10]\nadd %r4, %r4, %r7\n"
                       "ldsw %r7, [%r2+12]\nadd %r4, %r4, %r7\n"
                       "lduw %r7, [%r2+12]\nadd %r4, %r4, %r7\n"
                       "add %r4, %r4, %r5\nadd %r4, %r4, %r6\nret %r4";
    uint64_t expected = 0x8877665544332211ull + uint64_t(-2) + 0xfffe + uint64_t(int64_t(int32_t(0x80000001))) +
                        0x80000001ull + uint64_t(-16) + 0xf0;
    EXPECT_EQ(r.run(text), expected);
    EXPECT_EQ(r.fault.kind, FaultKind::None);
}

TEST(VmMemory, AllocsIsZeroedAndAligned) {
    Runner r;
    uint64_t a = r.run("setx %r1, 3\nallocs %r2, %r1\nsetx %r1, 24\nallocs %r3, %r1\nldx %r4, [%r3+16]\n"
                       "bnz %r4, bad\nret %r3\nbad: ret %r0");
    EXPECT_NE(a, 0u);
    EXPECT_EQ(a % 8, 0u);
}

TEST(VmMemory, CopysCopiesIntoScratch) {
    Runner r;
    uint64_t a = r.run("DIFO returns string\nsets %r1, \"hello\"\nsetx %r2, 6\nallocs %r3, %r2\n"
                       "copys %r3, %r1, %r2\nret %r3");
    EXPECT_EQ(r.string_at(a), "hello");
}

TEST(VmMemory, LoadsFromTheStringTable) {
    Runner r;
    EXPECT_EQ(r.run("sets %r1, \"AB\"\nldub %r2, [%r1+1]\nret %r2"), uint64_t('B'));
}

TEST(VmMemory, LoadsFromDeclaredRegionsUntilTheClauseEnds) {
    Runner r;
    alignas(8) static const uint64_t payload[2] = {0x1111, 0x2222};
    r.vm.add_readable(payload, sizeof payload);
    std::string text =
        "setx %r1, " + std::to_string(reinterpret_cast<uint64_t>(payload)) + "\nldx %r2, [%r1+8]\nret %r2";
    EXPECT_EQ(r.run(text), 0x2222u);
    r.vm.begin_clause();
    EXPECT_EQ(r.run(text), 0u);
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
    EXPECT_EQ(r.fault.address, reinterpret_cast<uint64_t>(payload) + 8);
}

TEST(VmMemory, DeclaredStringsReadUpToTheirNulOrStrsize) {
    VmConfig config;
    config.strsize = 4;
    Runner r(config);
    static const char names[] = "probefunc\0execname";
    const char *execname = names + 10;
    r.vm.add_readable_string(names, 9);
    r.vm.add_readable_string(execname, 8);
    // The string declared last and an earlier one read alike, cut at strsize.
    EXPECT_EQ(r.string_at(reinterpret_cast<uint64_t>(execname)), "exec");
    EXPECT_EQ(r.string_at(reinterpret_cast<uint64_t>(names)), "prob");
    EXPECT_EQ(r.string_at(reinterpret_cast<uint64_t>(execname + 6)), "me");
    r.vm.begin_clause();
    std::string_view s;
    Fault f;
    EXPECT_FALSE(r.vm.load_string(reinterpret_cast<uint64_t>(execname), s, f));
    EXPECT_EQ(f.kind, FaultKind::BadAddr);
}

TEST(VmMemory, StringTablesAreForgottenAtClauseStart) {
    Runner r;
    uint64_t hello = r.run("DIFO returns string\nsets %r1, \"hello\"\nret %r1");
    EXPECT_EQ(r.string_at(hello), "hello");
    r.vm.begin_clause();
    std::string_view s;
    Fault f;
    EXPECT_FALSE(r.vm.load_string(hello, s, f)) << "the string table of the previous clause's DIFO";
    EXPECT_EQ(f.kind, FaultKind::BadAddr);
}

TEST(VmMemory, AClauseThatTouchedNothingLeavesTheNextOneNothingEither) {
    Runner r;
    alignas(8) static const uint64_t payload[1] = {0x1111};
    r.vm.add_readable(payload, sizeof payload);
    r.vm.begin_clause();
    EXPECT_EQ(r.run("setx %r1, 7\nret %r1"), 7u); // registers only
    r.vm.begin_clause();
    EXPECT_EQ(r.run("setx %r1, " + std::to_string(reinterpret_cast<uint64_t>(payload)) + "\nldx %r2, [%r1]\nret %r2"),
              0u);
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
}

TEST(VmMemory, ScratchIsResetAtClauseStart) {
    Runner r;
    std::string alloc = "setx %r1, 8\nallocs %r2, %r1\nret %r2";
    uint64_t first = r.run(alloc);
    uint64_t second = r.run(alloc);
    EXPECT_NE(first, second); // the same clause keeps its allocations
    r.vm.begin_clause();
    EXPECT_EQ(r.run(alloc), first);
}

TEST(VmMemory, LoadsFromTheTracedProcess) {
    Runner r;
    r.env.target = {0x01, 0x80, 0xff, 0xff, 0x44, 0x33, 0x22, 0x11, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
    auto load = [&](const char *op, int offset) {
        std::string text = "setx %r1, " + std::to_string(r.env.target_base) + "\n" + op + " %r2, [%r1+" +
                           std::to_string(offset) + "]\nret %r2";
        return r.run(text);
    };
    EXPECT_EQ(load("ulub", 1), 0x80u);
    EXPECT_EQ(load("ulsb", 1), uint64_t(-128));
    EXPECT_EQ(load("uluh", 2), 0xffffu);
    EXPECT_EQ(load("ulsh", 2), uint64_t(-1));
    EXPECT_EQ(load("uluw", 4), 0x11223344u);
    EXPECT_EQ(load("ulsw", 0), uint64_t(int64_t(int32_t(0xffff8001))));
    EXPECT_EQ(load("ulx", 8), 0x1122334455667788u);
    // User loads have no alignment requirement.
    EXPECT_EQ(load("uluh", 1), 0xff80u);
}

TEST(VmMemory, ReadThroughMakesTheTargetLoadableAndReadableAsStrings) {
    Runner r;
    r.env.target = {'a', 'b', 'c', 0, 0x44, 0x33, 0x22, 0x11};
    const std::string base = std::to_string(r.env.target_base);
    const std::string load = "setx %r1, " + base + "\nlduw %r2, [%r1+4]\nret %r2";
    const std::string length = "setx %r1, " + base + "\npushts %r1\ncall %r2, strlen\nret %r2";
    EXPECT_EQ(r.run(load), 0u); // not the VM's memory: a fault
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
    r.vm.read_through(&r.env);
    EXPECT_EQ(r.run(load), 0x11223344u);
    EXPECT_EQ(r.fault.kind, FaultKind::None);
    EXPECT_EQ(r.run(length), 3u);
    // Past what the target holds is still a fault, and the clause's end
    // forgets the source.
    EXPECT_EQ(r.run("setx %r1, " + base + "\nldx %r2, [%r1+8]\nret %r2"), 0u);
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
    r.vm.begin_clause();
    EXPECT_EQ(r.run(load), 0u);
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
}

TEST(VmMemory, TupleKeysAndSubroutineArguments) {
    Runner r;
    // Pops and flushes shape the tuple: strlen sees only the last push.
    uint64_t v = r.run("sets %r1, \"abc\"\nsets %r2, \"hello\"\npushts %r1\npopts\npopts\nflushts\n"
                       "pushts %r1\nflushts\npushts %r2\ncall %r3, strlen\nret %r3");
    EXPECT_EQ(v, 5u);
    // Call empties the stack.
    v = r.run("sets %r1, \"abc\"\npushts %r1\ncall %r3, strlen\npushts %r1\ncall %r4, strlen\n"
              "add %r3, %r3, %r4\nret %r3");
    EXPECT_EQ(v, 6u);
}

TEST(VmMemory, EarlierResultsOfTheClauseStayReadable) {
    Runner r;
    uint64_t first = r.run("DIFO returns string\nsets %r1, \"first\"\nret %r1");
    r.run("DIFO returns string\nsets %r1, \"second\"\nret %r1");
    EXPECT_EQ(r.string_at(first), "first");
    r.vm.begin_clause();
    std::string_view s;
    Fault f;
    EXPECT_FALSE(r.vm.load_string(first, s, f));
}

TEST(VmMemory, ByRefVariablesAreCopiedIn) {
    Runner r;
    const char *vars = "NAME ID KND SCP FLAG TYPE\ng 100 scl glb byref:16\n";
    // g = *(struct of 16 bytes in scratch); then overwrite the scratch copy.
    uint64_t v = r.run(std::string("setx %r1, 16\nallocs %r2, %r1\nsetx %r3, 77\nstx [%r2+8], %r3\n"
                                   "stgv g, %r2\nstx [%r2+8], %r0\nldgv %r4, g\nldx %r5, [%r4+8]\nret %r5\n") +
                       vars);
    EXPECT_EQ(v, 77u);
    EXPECT_EQ(r.run(std::string("stgv g, %r0\nldgv %r4, g\nret %r4\n") + vars), 0u); // cleared: a null pointer
}

TEST(VmMemory, ReturnedValuesAreReadableThroughTheVm) {
    Runner r;
    uint64_t a = r.run("setx %r1, 4\nallocs %r2, %r1\nsetx %r3, 0x04030201\nstw [%r2], %r3\nret %r2");
    std::string_view bytes;
    Fault f;
    ASSERT_TRUE(r.vm.load_bytes(a, 4, bytes, f));
    EXPECT_EQ(bytes, std::string_view("\x01\x02\x03\x04", 4));
    // Past the allocation, the rest of the scratch space reads, as in DTrace;
    // past the scratch space, nothing does.
    EXPECT_TRUE(r.vm.load_bytes(a, 4096, bytes, f));
    EXPECT_FALSE(r.vm.load_bytes(a, VmConfig{}.scratch_size + 1, bytes, f));
    EXPECT_EQ(f.kind, FaultKind::BadAddr);
    std::string_view s;
    EXPECT_FALSE(r.vm.load_string(0x10, s, f));
    EXPECT_EQ(f.address, 0x10u);
}

} // namespace
} // namespace dtrace::dif
