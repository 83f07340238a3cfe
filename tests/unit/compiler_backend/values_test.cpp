// values_test.cpp: what compiled expressions compute, run on the DIF VM:
// arithmetic with C's conversions, signed and unsigned division and
// comparison, casts, strings, short circuits, variables of every scope.
#include "ast_builder.h"
#include "harness.h"

using namespace astb;
using harness::Runner;

namespace {

std::vector<harness::Value> run(ProgramAst ast, Runner &r) {
    auto prog = harness::compile_ok(ast);
    std::vector<harness::Value> out;
    for (const auto &c : prog.clauses)
        for (auto &v : r.run_clause(c))
            out.push_back(v);
    return out;
}

std::vector<harness::Value> run(ProgramAst ast) {
    Runner r;
    return run(std::move(ast), r);
}

int64_t trace1(ExprPtr e) {
    auto v = run(program(clause(stmts(call("trace", list(std::move(e)))))));
    return v.size() == 1 ? v[0].i : INT64_MIN;
}

// Runs `x = init; trace(f(x))` so that the operation happens at run time.
int64_t trace_var(ExprPtr init, ExprPtr e) {
    auto v = run(program(clause(stmts(bin(Op::Assign, id("x"), std::move(init)), call("trace", list(std::move(e)))))));
    return v.size() == 1 ? v[0].i : INT64_MIN;
}

} // namespace

TEST(Values, ArithmeticFoldsAndRuns) {
    EXPECT_EQ(trace1(bin(Op::Add, num(1), bin(Op::Mul, num(2), num(3)))), 7);
    EXPECT_EQ(trace_var(num(2), bin(Op::Add, num(1), bin(Op::Mul, id("x"), num(3)))), 7);
}

TEST(Values, SignedAndUnsignedDivision) {
    EXPECT_EQ(trace1(bin(Op::Div, un(Op::Minus, num(7)), num(2))), -3);
    EXPECT_EQ(trace_var(un(Op::Minus, num(7)), bin(Op::Div, id("x"), num(2))), -3);
    EXPECT_EQ(trace_var(un(Op::Minus, num(7)), bin(Op::Mod, id("x"), num(2))), -1);
    // Not C's 1073741822: DTrace divides the 64-bit registers unsigned
    // (0xfffffffffffffffa / 4) and records the low 32 bits of the quotient.
    EXPECT_EQ(trace_var(un(Op::Minus, num(6)), bin(Op::Div, id("x"), num(4, IntSuffix::U))), 4294967294);
    EXPECT_EQ(trace1(bin(Op::Div, un(Op::Minus, num(6)), num(4, IntSuffix::U))), 4294967294);
}

TEST(Values, SignedAndUnsignedComparison) {
    EXPECT_EQ(trace_var(un(Op::Minus, num(1)), bin(Op::Lt, id("x"), num(1, IntSuffix::U))), 0);
    EXPECT_EQ(trace_var(un(Op::Minus, num(1)), bin(Op::Lt, id("x"), num(1))), 1);
    EXPECT_EQ(trace_var(un(Op::Minus, num(1)), bin(Op::Gt, id("x"), num(1, IntSuffix::UL))), 1);
    EXPECT_EQ(trace1(bin(Op::Lt, un(Op::Minus, num(1)), num(1, IntSuffix::U))), 0);
}

TEST(Values, IntegerCasts) {
    EXPECT_EQ(trace1(cast(type({"char"}), num(300))), 44);
    EXPECT_EQ(trace_var(num(300), cast(type({"char"}), id("x"))), 44);
    EXPECT_EQ(trace_var(num(200), cast(type({"char"}), id("x"))), -56);
    EXPECT_EQ(trace_var(num(200), cast(type({"unsigned", "char"}), id("x"))), 200);
    EXPECT_EQ(trace_var(un(Op::Minus, num(1)), cast(type({"uint16_t"}), id("x"))), 65535);
    // (unsigned int)-1 compared as 64 bits is 4294967295, not -1.
    EXPECT_EQ(
        trace_var(un(Op::Minus, num(1)), bin(Op::Eq, cast(type({"unsigned", "int"}), id("x")), num(4294967295ULL))), 1);
}

TEST(Values, NarrowArithmeticWraps) {
    // char + char is char in D (no promotion to int): 100 + 100 wraps to -56.
    EXPECT_EQ(trace_var(cast(type({"char"}), num(100)), bin(Op::Add, id("x"), id("x"))), -56);
    EXPECT_EQ(trace_var(num(0, IntSuffix::U), un(Op::BitNot, id("x"))), int64_t(0xffffffff));
}

TEST(Values, Strings) {
    auto v = run(program(
        clause(stmts(bin(Op::Assign, id("s"), str("abc")), call("trace", list(bin(Op::Eq, id("s"), str("abc")))),
                     call("trace", list(bin(Op::Lt, id("s"), str("abd")))),
                     call("trace", list(bin(Op::Ne, id("s"), str("abc")))), call("trace", list(id("s")))))));
    ASSERT_EQ(v.size(), 4u);
    EXPECT_EQ(v[0].i, 1);
    EXPECT_EQ(v[1].i, 1);
    EXPECT_EQ(v[2].i, 0);
    EXPECT_TRUE(v[3].is_string);
    EXPECT_EQ(v[3].s, "abc");
}

TEST(Values, ShortCircuits) {
    // x != 0 && 10 / x > 1 must not divide by zero.
    EXPECT_EQ(trace_var(num(0), bin(Op::LogAnd, bin(Op::Ne, id("x"), num(0)),
                                    bin(Op::Gt, bin(Op::Div, num(10), id("x")), num(1)))),
              0);
    EXPECT_EQ(trace_var(num(5), bin(Op::LogAnd, bin(Op::Ne, id("x"), num(0)),
                                    bin(Op::Gt, bin(Op::Div, num(10), id("x")), num(1)))),
              1);
    // 1 || y++ leaves y alone.
    auto v = run(program(clause(stmts(bin(Op::Assign, id("y"), num(0)), bin(Op::Assign, id("one"), num(1)),
                                      call("trace", list(bin(Op::LogOr, id("one"), post(Op::PostInc, id("y"))))),
                                      call("trace", list(id("y")))))));
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].i, 1);
    EXPECT_EQ(v[1].i, 0);
    EXPECT_EQ(trace_var(num(3), bin(Op::LogXor, id("x"), num(0))), 1);
    EXPECT_EQ(trace_var(num(3), bin(Op::LogXor, id("x"), num(7))), 0);
}

TEST(Values, Ternary) {
    auto v =
        run(program(clause(stmts(bin(Op::Assign, id("x"), num(5)),
                                 call("trace", list(ternary(bin(Op::Gt, id("x"), num(3)), str("big"), str("small")))),
                                 call("trace", list(ternary(bin(Op::Lt, id("x"), num(3)), num(1), num(2))))))));
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].s, "big");
    EXPECT_EQ(v[1].i, 2);
}

TEST(Values, VariablesOfEveryScope) {
    auto v = run(program(
        clause(stmts(bin(Op::Assign, self("a"), num(5)), bin(Op::Assign, thisv("b"), bin(Op::Add, self("a"), num(1))),
                     bin(Op::Assign, index(id("arr"), list(str("k"), num(2))), thisv("b")),
                     call("trace", list(index(id("arr"), list(str("k"), num(2))))),
                     call("trace", list(index(id("arr"), list(str("k"), num(3)))))))));
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].i, 6);
    EXPECT_EQ(v[1].i, 0);
}

TEST(Values, IncrementAndCompoundAssignment) {
    auto v = run(
        program(clause(stmts(bin(Op::Assign, id("x"), num(5)), bin(Op::AddAssign, id("x"), num(3)),
                             bin(Op::ShlAssign, id("x"), num(1)), call("trace", list(post(Op::PostInc, id("x")))),
                             call("trace", list(id("x"))), call("trace", list(un(Op::PreDec, id("x")))),
                             post(Op::PostInc, id("n")), post(Op::PostInc, id("n")), call("trace", list(id("n")))))));
    ASSERT_EQ(v.size(), 4u);
    EXPECT_EQ(v[0].i, 16);
    EXPECT_EQ(v[1].i, 17);
    EXPECT_EQ(v[2].i, 16);
    EXPECT_EQ(v[3].i, 2);
}

TEST(Values, GlobalsPersistAcrossClauses) {
    Runner r;
    auto v = run(program(clause(stmts(bin(Op::Assign, id("x"), num(41)))),
                         clause(stmts(call("trace", list(un(Op::PreInc, id("x"))))))),
                 r);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].i, 42);
}

TEST(Values, Builtins) {
    Runner r;
    r.env.values[dtrace::dif::VarId::Pid] = 1234;
    r.env.values[dtrace::dif::VarId::Timestamp] = 99;
    auto v = run(program(clause(stmts(call("trace", list(id("pid"))), call("trace", list(id("timestamp")))))), r);
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].i, 1234);
    EXPECT_EQ(v[1].i, 99);
}

TEST(Values, ArgsTypedByHook) {
    CompileOptions opts;
    opts.probe_arg_types = [](const std::vector<std::string> &, int) {
        return ProbeArgTypes{{"int", "uint8_t"}, std::nullopt};
    };
    auto prog = harness::compile_ok(
        program(clause(stmts(call("trace", list(index(id("args"), list(num(0))))),
                             call("trace", list(index(id("args"), list(num(1))))), call("trace", list(id("arg0")))))),
        opts);
    Runner r;
    r.env.args = {0xffffffffULL, 0x1ff};
    auto v = r.run_clause(prog.clauses.at(0));
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].i, -1);
    EXPECT_EQ(v[1].i, 0xff);
    EXPECT_EQ(v[2].i, 0xffffffffLL);
}

TEST(Values, Subroutines) {
    auto v = run(program(clause(stmts(call("trace", list(call("strlen", list(str("hello"))))),
                                      call("trace", list(call("strjoin", list(str("ab"), str("cd"))))),
                                      call("trace", list(call("substr", list(str("hello"), num(1), num(3))))),
                                      call("trace", list(call("toupper", list(str("abc")))))))));
    ASSERT_EQ(v.size(), 4u);
    EXPECT_EQ(v[0].i, 5);
    EXPECT_EQ(v[1].s, "abcd");
    EXPECT_EQ(v[2].s, "ell");
    EXPECT_EQ(v[3].s, "ABC");
}

TEST(Values, Predicates) {
    Runner r;
    auto prog =
        harness::compile_ok(program(clause(stmts(call("trace", list(num(1)))), bin(Op::Gt, id("pid"), num(10)))));
    r.env.values[dtrace::dif::VarId::Pid] = 5;
    EXPECT_TRUE(r.run_clause(prog.clauses[0]).empty());
    r.env.values[dtrace::dif::VarId::Pid] = 50;
    EXPECT_EQ(r.run_clause(prog.clauses[0]).size(), 1u);
}
