// alloca(), bcopy(), copyin(), copyinstr(), copyinto(): scratch bounds and
// traced-process reads with their faults.
#include "dif_test_util.h"

#include <gtest/gtest.h>

#include <cstring>

namespace dtrace::dif {
namespace {

using test::call_text;
using test::I;
using test::Runner;
using test::S;

class MemorySubr : public ::testing::Test {
  protected:
    void SetUp() override {
        const char text[] = "hello\0world";
        r.env.target.assign(text, text + sizeof text);
    }
    uint64_t target(uint64_t offset) const { return r.env.target_base + offset; }
    Runner r;
};

TEST_F(MemorySubr, AllocaIsAlignedZeroedAndWritable) {
    uint64_t a = r.run("setx %r1, 12\npushtv %r1, 8\ncall %r2, alloca\nldx %r3, [%r2]\nbnz %r3, bad\n"
                       "setx %r3, 7\nstw [%r2+8], %r3\nlduw %r4, [%r2+8]\nret %r4\nbad: ret %r0");
    EXPECT_EQ(a, 7u);
    EXPECT_EQ(r.fault.kind, FaultKind::None);
    r.run(call_text("alloca", {I(uint64_t(-1))}));
    EXPECT_EQ(r.fault.kind, FaultKind::NoScratch);
}

TEST_F(MemorySubr, BcopyIntoScratch) {
    uint64_t a = r.run("sets %r1, \"copied\"\nsetx %r2, 7\npushtv %r2, 8\ncall %r3, alloca\n"
                       "pushtv %r1, 8\npushtv %r3, 8\npushtv %r2, 8\ncall %r4, bcopy\nret %r3");
    EXPECT_EQ(r.string_at(a), "copied");
}

TEST_F(MemorySubr, BcopyFaults) {
    // Into the string table: not scratch.
    r.run("sets %r1, \"src\"\nsets %r2, \"dst\"\nsetx %r3, 2\npushtv %r1, 8\npushtv %r2, 8\npushtv %r3, 8\n"
          "call %r4, bcopy\nret %r0");
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
    EXPECT_EQ(r.fault.pc, 6u);
    // From nowhere.
    r.run("setx %r2, 8\npushtv %r2, 8\ncall %r3, alloca\nsetx %r1, 0x999\npushtv %r1, 8\npushtv %r3, 8\n"
          "pushtv %r2, 8\ncall %r4, bcopy\nret %r0");
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
    EXPECT_EQ(r.fault.address, 0x999u);
}

TEST_F(MemorySubr, Copyin) {
    uint64_t a = r.run(call_text("copyin", {I(target(6)), I(5)}));
    ASSERT_EQ(r.fault.kind, FaultKind::None);
    EXPECT_EQ(a % 8, 0u);
    std::string_view bytes;
    Fault f;
    ASSERT_TRUE(r.vm.load_bytes(a, 5, bytes, f));
    EXPECT_EQ(bytes, "world");
}

TEST_F(MemorySubr, CopyinFaults) {
    r.run(call_text("copyin", {I(0x500), I(4)}));
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
    EXPECT_EQ(r.fault.address, 0x500u);
    r.run(call_text("copyin", {I(target(8)), I(8)})); // runs off the end of the mapping
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
    EXPECT_EQ(r.fault.address, target(r.env.target.size()));
    r.env.target_access = false;
    r.run(call_text("copyin", {I(target(0)), I(4)}));
    EXPECT_EQ(r.fault.kind, FaultKind::UPriv);
    EXPECT_EQ(r.fault.address, target(0));
}

TEST_F(MemorySubr, Copyinstr) {
    EXPECT_EQ(r.string_at(r.run(call_text("copyinstr", {I(target(0))}))), "hello");
    EXPECT_EQ(r.string_at(r.run(call_text("copyinstr", {I(target(6))}))), "world");
    EXPECT_EQ(r.string_at(r.run(call_text("copyinstr", {I(target(0)), I(3)}))), "hel");
    EXPECT_EQ(r.string_at(r.run(call_text("copyinstr", {I(target(0)), I(0)}))), "");
}

TEST_F(MemorySubr, CopyinstrIsBoundedByStrsize) {
    VmConfig c;
    c.strsize = 4;
    Runner small(c);
    const char text[] = "abcdefgh";
    small.env.target.assign(text, text + sizeof text);
    EXPECT_EQ(small.string_at(small.run(call_text("copyinstr", {I(small.env.target_base)}))), "abc");
}

TEST_F(MemorySubr, CopyinstrReadsUpToTheEndOfTheMapping) {
    constexpr size_t kTwoPages = 8192;
    r.env.target.assign(kTwoPages, 'x');
    r.env.target[kTwoPages - 1] = 0;
    // The string ends on the mapping's last byte: reading strsize bytes at
    // once would fail, reading page by page does not.
    uint64_t a = r.run(call_text("copyinstr", {I(target(kTwoPages - 4))}));
    EXPECT_EQ(r.fault.kind, FaultKind::None);
    EXPECT_EQ(r.string_at(a), "xxx");
    // Without a NUL before the mapping ends it faults where reading stopped.
    r.env.target[kTwoPages - 1] = 'x';
    r.run(call_text("copyinstr", {I(target(kTwoPages - 4))}));
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
    EXPECT_EQ(r.fault.address, target(kTwoPages));
}

TEST_F(MemorySubr, Copyinto) {
    uint64_t a = r.run("setx %r1, 8\npushtv %r1, 8\ncall %r2, alloca\n"
                       "setx %r3, " +
                       std::to_string(target(0)) +
                       "\nsetx %r4, 5\n"
                       "pushtv %r3, 8\npushtv %r4, 8\npushtv %r2, 8\ncall %r5, copyinto\nret %r2");
    EXPECT_EQ(r.string_at(a), "hello");
    r.run("sets %r2, \"not scratch\"\nsetx %r3, " + std::to_string(target(0)) +
          "\nsetx %r4, 5\npushtv %r3, 8\npushtv %r4, 8\npushtv %r2, 8\ncall %r5, copyinto\nret %r0");
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
    EXPECT_EQ(r.fault.pc, 6u);
}

} // namespace
} // namespace dtrace::dif
