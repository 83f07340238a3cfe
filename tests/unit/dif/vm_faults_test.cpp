// Faults: every kind the VM raises, with its address and instruction index;
// a fault stops the run at once; and the VM's own defences against DIFOs
// that never went through the validator.
#include "dif/fault.h"
#include "dif_test_util.h"

#include <gtest/gtest.h>
#include <malloc.h>

namespace dtrace::dif {
namespace {

using test::assemble_ok;
using test::Runner;

void expect_fault(const Fault &f, FaultKind kind, uint32_t pc, uint64_t address) {
    EXPECT_EQ(f.kind, kind) << fault_message(f.kind);
    EXPECT_EQ(f.pc, pc);
    EXPECT_EQ(f.address, address);
}

TEST(Faults, MessagesAreDTraces) {
    EXPECT_STREQ(fault_message(FaultKind::BadAddr), "invalid address");
    EXPECT_STREQ(fault_message(FaultKind::BadAlign), "invalid alignment");
    EXPECT_STREQ(fault_message(FaultKind::IllOp), "illegal operation");
    EXPECT_STREQ(fault_message(FaultKind::DivZero), "divide-by-zero");
    EXPECT_STREQ(fault_message(FaultKind::NoScratch), "out of scratch space");
    EXPECT_STREQ(fault_message(FaultKind::KPriv), "invalid kernel access");
    EXPECT_STREQ(fault_message(FaultKind::UPriv), "invalid user access");
    EXPECT_STREQ(fault_message(FaultKind::TupleOverflow), "tuple stack overflow");
    EXPECT_STREQ(fault_message(FaultKind::BadStack), "bad stack");
    // The numeric values are DTrace's DTRACEFLT_* codes (ERROR's arg4).
    EXPECT_EQ(int(FaultKind::BadAddr), 1);
    EXPECT_EQ(int(FaultKind::BadStack), 9);
}

TEST(Faults, LoadFromAnUnknownAddress) {
    Runner r;
    EXPECT_EQ(r.run("nop\nsetx %r1, 0x1000\nldx %r2, [%r1+8]\nret %r2"), 0u);
    expect_fault(r.fault, FaultKind::BadAddr, 2, 0x1008);
}

TEST(Faults, LoadPastTheEndOfAReadableRegion) {
    Runner r;
    uint64_t a = r.run("setx %r1, 8\nallocs %r2, %r1\nret %r2");
    std::string addr = std::to_string(a);
    // Past an allocation but inside the scratch space: read, as DTrace reads it.
    r.run("setx %r1, " + addr + "\nldx %r2, [%r1+8]\nret %r2");
    EXPECT_EQ(r.fault.kind, FaultKind::None);
    // Past the scratch space: a fault.
    const uint64_t end = a + VmConfig{}.scratch_size;
    r.run("setx %r1, " + std::to_string(end) + "\nldx %r2, [%r1]\nret %r2");
    expect_fault(r.fault, FaultKind::BadAddr, 1, end);
}

TEST(Faults, MisalignedLoadAndStore) {
    Runner r;
    r.run("setx %r1, 16\nallocs %r2, %r1\nldsh %r3, [%r2+1]\nret %r3");
    ASSERT_EQ(r.fault.kind, FaultKind::BadAlign);
    EXPECT_EQ(r.fault.pc, 2u);
    uint64_t base = r.fault.address - 1;
    EXPECT_EQ(base % 8, 0u);
    r.run("setx %r1, 16\nallocs %r2, %r1\nstw [%r2+2], %r1\nret %r0");
    EXPECT_EQ(r.fault.kind, FaultKind::BadAlign);
    EXPECT_EQ(r.fault.pc, 2u);
    // A misaligned load from nowhere reports the alignment first, as DTrace does.
    r.run("setx %r1, 0x1001\nldx %r2, [%r1]\nret %r2");
    expect_fault(r.fault, FaultKind::BadAlign, 1, 0x1001);
}

TEST(Faults, StoresOutsideScratch) {
    Runner r;
    r.run("sets %r1, \"constant\"\nstb [%r1], %r1\nret %r0");
    expect_fault(r.fault, FaultKind::BadAddr, 1, reinterpret_cast<uint64_t>(r.last().strtab.data()));
    r.run("setx %r1, 8\nallocs %r2, %r1\nstx [%r2+8], %r1\nret %r0"); // one past the allocation
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
    EXPECT_EQ(r.fault.pc, 2u);
    r.run("sets %r1, \"constant\"\nsets %r3, \"abcdefgh\"\nsetx %r2, 4\ncopys %r3, %r1, %r2\nret %r0");
    expect_fault(r.fault, FaultKind::BadAddr, 3, reinterpret_cast<uint64_t>(r.last().strtab.data()) + 9);
}

TEST(Faults, DivisionByZero) {
    for (const char *op : {"sdiv", "udiv", "srem", "urem"}) {
        Runner r;
        r.run(std::string("setx %r1, 5\n") + op + " %r2, %r1, %r0\nret %r2");
        expect_fault(r.fault, FaultKind::DivZero, 1, 0);
    }
}

TEST(Faults, ScratchExhaustion) {
    VmConfig c;
    c.scratch_size = 1024;
    Runner r(c);
    r.run("setx %r1, 1000\nallocs %r2, %r1\nallocs %r3, %r1\nret %r3");
    expect_fault(r.fault, FaultKind::NoScratch, 2, 0);
    r.vm.begin_clause();
    r.run("setx %r1, -1\nallocs %r2, %r1\nret %r2");
    expect_fault(r.fault, FaultKind::NoScratch, 1, 0);
}

TEST(Faults, IllegalOperations) {
    Runner r;
    r.run("setx %r1, 99\nldga %r2, args, %r1\nret %r2"); // the environment refuses the index
    expect_fault(r.fault, FaultKind::IllOp, 1, 0);
    r.run("setx %r1, 1\npushtv %r1, 8\ncall %r2, strlen\nret %r2"); // an integer where a string goes
    expect_fault(r.fault, FaultKind::BadAddr, 2, 1);
    r.run("call %r2, strlen\nret %r2"); // too few arguments
    expect_fault(r.fault, FaultKind::IllOp, 0, 0);
}

// speculation() is the environment's (the engine's speculations); an
// environment without speculations has none to give.
TEST(Faults, SpeculationAsksTheEnvironment) {
    Runner r;
    EXPECT_EQ(r.run("call %r1, speculation\nret %r1"), 0u);
    EXPECT_EQ(r.fault.kind, FaultKind::None);
}

TEST(Faults, UserAccessWithoutATarget) {
    Runner r;
    r.env.target_access = false;
    r.run("setx %r1, 0x10000\nulx %r2, [%r1]\nret %r2");
    expect_fault(r.fault, FaultKind::UPriv, 1, 0x10000);
    r.env.target_access = true;
    r.run("setx %r1, 0x20000\nuluw %r2, [%r1+4]\nret %r2");
    expect_fault(r.fault, FaultKind::BadAddr, 1, 0x20004);
}

TEST(Faults, TupleStackOverflow) {
    Runner r;
    std::string text;
    for (int i = 0; i < 9; i++)
        text += "pushtv %r1, 8\n";
    r.run(text + "ret %r0");
    expect_fault(r.fault, FaultKind::TupleOverflow, 8, 0);
}

TEST(Faults, TupleKeyBytesOverflow) {
    VmConfig c;
    c.strsize = 8;
    Runner r(c);
    // The key buffer holds depth * (strsize + 16) bytes.
    r.run("setx %r1, 1000\nallocs %r2, %r1\npushtr %r2, %r1\nret %r0");
    expect_fault(r.fault, FaultKind::TupleOverflow, 2, 0);
}

// A large strsize costs only what the keys use: a VM whose key buffer may
// hold 8 * 4 GB takes no more than a few megabytes until keys fill it.
TEST(Faults, ALargeStrsizeTakesMemoryOnlyAsKeysUseIt) {
    auto heap = [] { return mallinfo2().uordblks + mallinfo2().hblkhd; };
    const size_t before = heap();
    VmConfig c;
    c.strsize = UINT32_MAX;
    Runner r(c);
    EXPECT_LT(heap() - before, size_t(64) << 20);
    r.run("setx %r1, 7\npushtv %r1, 8\nret %r0");
    EXPECT_EQ(r.fault.kind, FaultKind::None);
}

TEST(Faults, AFaultStopsTheRunAtOnce) {
    Runner r;
    const char *vars = "NAME ID KND SCP FLAG TYPE\nx 100 scl glb int64\n";
    r.run(std::string("setx %r1, 1\nstgv x, %r1\nudiv %r2, %r1, %r0\nstgv x, %r0\nret %r1\n") + vars);
    EXPECT_EQ(r.fault.kind, FaultKind::DivZero);
    EXPECT_EQ(r.run(std::string("ldgv %r1, x\nret %r1\n") + vars), 1u);
}

TEST(Faults, TheNextRunStartsClean) {
    Runner r;
    r.run("udiv %r1, %r1, %r0\nret %r1");
    ASSERT_EQ(r.fault.kind, FaultKind::DivZero);
    EXPECT_EQ(r.run("setx %r1, 3\nret %r1"), 3u);
    EXPECT_EQ(r.fault.kind, FaultKind::None);
}

// ---- defences against DIFOs that skipped validation ----

Fault run_raw(const Difo &d) {
    Runner r;
    r.run_unvalidated(d);
    return r.fault;
}

TEST(VmDefences, OutOfRangeTablesAndBackwardBranches) {
    expect_fault(run_raw(assemble_ok("setx %r1, DT_INTEGER[4]\nret %r1")), FaultKind::IllOp, 0, 0);
    expect_fault(run_raw(assemble_ok("nop\nsets %r1, DT_STRING[4]\nret %r1")), FaultKind::IllOp, 1, 0);
    expect_fault(run_raw(assemble_ok("nop\nba 0\nret %r0")), FaultKind::IllOp, 1, 0);
    expect_fault(run_raw(assemble_ok("nop\nnop\nbz %r0, 2\nret %r0")), FaultKind::IllOp, 2, 0);
    expect_fault(run_raw(assemble_ok(".word 0xfe\nret %r0")), FaultKind::IllOp, 0, 0);
    Difo d = assemble_ok("ret %r0");
    d.code.insert(d.code.begin(), encode({Op::Sext, 1, 1, 0, 0}));
    expect_fault(run_raw(d), FaultKind::IllOp, 0, 0);
}

TEST(VmDefences, RegisterFieldsAreMasked) {
    Difo d;
    d.inttab = {5};
    d.code = {encode({Op::Setx, 9, 0, 0, 0}), encode({Op::Ret, 0, 9, 0, 0})}; // %r9 is %r1
    Runner r;
    EXPECT_EQ(r.run_unvalidated(d), 5u);
    d.code = {encode({Op::Setx, 0, 0, 0, 0}), encode({Op::Ret, 0, 0, 0, 0})}; // writes to %r0 are lost
    EXPECT_EQ(r.run_unvalidated(d), 0u);
}

TEST(VmDefences, UndeclaredAndConflictingVariables) {
    expect_fault(run_raw(assemble_ok("nop\nldgv %r1, DT_VAR(300)\nret %r1")), FaultKind::IllOp, 1, 0);
    Runner r;
    r.run("ldgv %r1, x\nret %r1\nNAME ID KND SCP FLAG TYPE\nx 100 scl glb int64\n");
    Difo conflicting = assemble_ok("ldgv %r1, x\nret %r1\nNAME ID KND SCP FLAG TYPE\nx 100 scl glb string\n");
    r.run_unvalidated(conflicting);
    expect_fault(r.fault, FaultKind::IllOp, 0, 0);
}

TEST(VmDefences, FallingOffTheEndReturnsZero) {
    Runner r;
    EXPECT_EQ(r.run_unvalidated(assemble_ok("setx %r1, 4")), 0u);
    EXPECT_EQ(r.fault.kind, FaultKind::None);
}

} // namespace
} // namespace dtrace::dif
