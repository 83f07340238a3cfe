// VM semantics of the register operations: arithmetic, logic, shifts,
// extension, comparisons, branches, constants and string comparison.
#include "dif_test_util.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace dtrace::dif {
namespace {

using test::Runner;

constexpr uint64_t kMinInt64 = uint64_t(1) << 63;

// Result of `op %r3, %r1, %r2` with r1 = a and r2 = b.
uint64_t binary(const char *op, uint64_t a, uint64_t b) {
    Runner r;
    std::string text =
        "setx %r1, " + std::to_string(a) + "\nsetx %r2, " + std::to_string(b) + "\n" + op + " %r3, %r1, %r2\nret %r3";
    uint64_t v = r.run(text);
    EXPECT_EQ(r.fault.kind, FaultKind::None) << op;
    return v;
}

uint64_t unary(const char *op, uint64_t a, const char *extra = "") {
    Runner r;
    uint64_t v = r.run("setx %r1, " + std::to_string(a) + "\n" + op + " %r2, %r1" + extra + "\nret %r2");
    EXPECT_EQ(r.fault.kind, FaultKind::None) << op;
    return v;
}

uint64_t neg(int64_t v) {
    return static_cast<uint64_t>(v);
}

TEST(VmOps, Logic) {
    EXPECT_EQ(binary("or", 0b1100, 0b1010), 0b1110u);
    EXPECT_EQ(binary("xor", 0b1100, 0b1010), 0b0110u);
    EXPECT_EQ(binary("and", 0b1100, 0b1010), 0b1000u);
    EXPECT_EQ(unary("not", 0), UINT64_MAX);
    EXPECT_EQ(unary("mov", 42), 42u);
}

TEST(VmOps, ArithmeticWraps) {
    EXPECT_EQ(binary("add", UINT64_MAX, 2), 1u);
    EXPECT_EQ(binary("sub", 1, 2), UINT64_MAX);
    EXPECT_EQ(binary("mul", 1ull << 32, 1ull << 32), 0u);
    EXPECT_EQ(binary("mul", neg(-3), 7), neg(-21));
}

TEST(VmOps, SignedAndUnsignedDivision) {
    EXPECT_EQ(binary("sdiv", neg(-7), 2), neg(-3)); // truncates toward zero
    EXPECT_EQ(binary("udiv", neg(-7), 2), (UINT64_MAX - 6) / 2);
    EXPECT_EQ(binary("srem", neg(-7), 2), neg(-1));
    EXPECT_EQ(binary("urem", neg(-7), 2), 1u);
    EXPECT_EQ(binary("sdiv", 7, neg(-2)), neg(-3));
    EXPECT_EQ(binary("srem", 7, neg(-2)), 1u);
}

TEST(VmOps, MostNegativeDividedByMinusOneWraps) {
    EXPECT_EQ(binary("sdiv", kMinInt64, neg(-1)), kMinInt64);
    EXPECT_EQ(binary("srem", kMinInt64, neg(-1)), 0u);
}

TEST(VmOps, Shifts) {
    EXPECT_EQ(binary("shl", 1, 63), kMinInt64);
    EXPECT_EQ(binary("srl", kMinInt64, 63), 1u);
    EXPECT_EQ(binary("sra", kMinInt64, 63), UINT64_MAX);
    EXPECT_EQ(binary("sra", 0x40, 4), 4u);
    // Counts are taken modulo 64.
    EXPECT_EQ(binary("shl", 1, 65), 2u);
    EXPECT_EQ(binary("srl", 4, 64), 4u);
}

TEST(VmOps, SignAndZeroExtension) {
    EXPECT_EQ(unary("sext", 0x80, ", 8"), neg(-128));
    EXPECT_EQ(unary("sext", 0x7f, ", 8"), 0x7fu);
    EXPECT_EQ(unary("sext", 0x12348000, ", 16"), neg(-32768));
    EXPECT_EQ(unary("sext", 0xffffffff, ", 32"), UINT64_MAX);
    EXPECT_EQ(unary("zext", neg(-1), ", 8"), 0xffu);
    EXPECT_EQ(unary("zext", neg(-1), ", 16"), 0xffffu);
    EXPECT_EQ(unary("zext", neg(-1), ", 32"), 0xffffffffu);
}

TEST(VmOps, Comparisons) {
    EXPECT_EQ(binary("seq", 5, 5), 1u);
    EXPECT_EQ(binary("seq", 5, 6), 0u);
    EXPECT_EQ(binary("sne", 5, 6), 1u);
    EXPECT_EQ(binary("slt", neg(-1), 1), 1u);  // signed
    EXPECT_EQ(binary("sltu", neg(-1), 1), 0u); // unsigned
    EXPECT_EQ(binary("sle", 3, 3), 1u);
    EXPECT_EQ(binary("sle", 4, 3), 0u);
    EXPECT_EQ(binary("sleu", 1, neg(-1)), 1u);
    EXPECT_EQ(binary("sleu", neg(-1), 1), 0u);
}

TEST(VmOps, BranchesSkipForward) {
    Runner r;
    const char *text = "setx %r1, 0\nsetx %r2, 1\n"
                       "bz %r1, a\nsetx %r3, 100\nret %r3\n"
                       "a: bnz %r1, b\nbnz %r2, c\nb: setx %r3, 200\nret %r3\n"
                       "c: ba d\nsetx %r3, 300\nret %r3\n"
                       "d: setx %r3, 7\nret %r3";
    EXPECT_EQ(r.run(text), 7u);
}

TEST(VmOps, RegisterZeroReadsAsZero) {
    Runner r;
    EXPECT_EQ(r.run("setx %r1, 9\nadd %r2, %r1, %r0\nret %r2"), 9u);
    EXPECT_EQ(r.run("ret %r0"), 0u);
}

TEST(VmOps, NopAndRetOfOtherRegisters) {
    Runner r;
    EXPECT_EQ(r.run("setx %r7, 77\nnop\nret %r7"), 77u);
}

TEST(VmOps, SetsGivesTheStringTableAddress) {
    Runner r;
    uint64_t a = r.run("sets %r1, \"one\"\nsets %r2, \"two\"\nret %r2");
    EXPECT_EQ(r.string_at(a), "two");
}

uint64_t scmp(Runner &r, const std::string &a, const std::string &b) {
    return r.run("sets %r1, \"" + a + "\"\nsets %r2, \"" + b + "\"\nscmp %r3, %r1, %r2\nret %r3");
}

TEST(VmOps, StringComparison) {
    Runner r;
    EXPECT_EQ(scmp(r, "abc", "abc"), 0u);
    EXPECT_EQ(scmp(r, "abc", "abd"), neg(-1));
    EXPECT_EQ(scmp(r, "abd", "abc"), 1u);
    EXPECT_EQ(scmp(r, "ab", "abc"), neg(-1));
    EXPECT_EQ(scmp(r, "b", "abc"), 1u);
    EXPECT_EQ(scmp(r, "\\xff", "a"), 1u); // bytes compare unsigned
    // A null pointer compares as "".
    EXPECT_EQ(r.run("sets %r1, \"\"\nscmp %r3, %r1, %r0\nret %r3"), 0u);
    EXPECT_EQ(r.run("sets %r1, \"a\"\nscmp %r3, %r0, %r1\nret %r3"), neg(-1));
}

TEST(VmOps, StringComparisonIsBoundedByStrsize) {
    VmConfig c;
    c.strsize = 4;
    Runner r(c);
    EXPECT_EQ(scmp(r, "abcdX", "abcdY"), 0u);
    EXPECT_EQ(scmp(r, "abcX", "abcY"), neg(-1));
}

TEST(VmOps, BuiltinsComeFromTheEnvironment) {
    Runner r;
    r.env.builtins[VarId::Arg0] = 11;
    r.env.builtins[VarId::Pid] = 1234;
    EXPECT_EQ(r.run("ldgv %r1, arg0\nldgv %r2, pid\nadd %r3, %r1, %r2\nret %r3"), 1245u);
    r.env.args = {5, 6, 7};
    EXPECT_EQ(r.run("setx %r1, 2\nldga %r2, args, %r1\nret %r2"), 7u);
}

// The example predicate /arg0 > 10/.
TEST(VmOps, PredicateArg0GreaterThanTen) {
    Runner r;
    const char *predicate = "ldgv %r1, arg0\nsetx %r2, 10\nslt %r3, %r2, %r1\nret %r3";
    r.env.builtins[VarId::Arg0] = 11;
    EXPECT_EQ(r.run(predicate), 1u);
    r.env.builtins[VarId::Arg0] = 10;
    EXPECT_EQ(r.run(predicate), 0u);
}

} // namespace
} // namespace dtrace::dif

namespace dtrace::dif {
namespace {

// The builtin-load shortcut must give exactly what the interpreter gives.
TEST(VmBuiltinLoad, LoneBuiltinLoadReturnsTheBuiltin) {
    test::Runner r;
    r.env.builtins[VarId::Pid] = 4242;
    EXPECT_EQ(r.run("ldgv %r1, pid\nret %r1"), 4242u);
    EXPECT_EQ(r.fault.kind, FaultKind::None);
    EXPECT_EQ(r.env.builtin_calls, 1);
}

TEST(VmBuiltinLoad, ReturningAnotherRegisterIsNotTheShortcut) {
    test::Runner r;
    r.env.builtins[VarId::Pid] = 4242;
    EXPECT_EQ(r.run("ldgv %r1, pid\nret %r2"), 0u); // %r2 was never written
}

} // namespace
} // namespace dtrace::dif
