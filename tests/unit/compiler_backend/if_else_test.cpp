// if_else_test.cpp: if/else statements, split into predicated clauses the
// way DTrace does (clause_split.h): the shape of the split, what runs, that
// a test is evaluated once and before the statements it guards, and the
// errors DTrace reports for bad tests.
#include "source_harness.h"

using namespace dtrace::compiler;
using namespace source_harness;

namespace {

Program compile_src(const std::string &src) {
    auto ast = parse(src);
    return ast ? harness::compile_ok(*ast) : Program{};
}

std::vector<int64_t> ints(const std::vector<Value> &values) {
    std::vector<int64_t> out;
    for (const auto &v : values)
        out.push_back(v.is_string ? INT64_MIN : v.i);
    return out;
}

using Ints = std::vector<int64_t>;

} // namespace

TEST(IfElse, SplitsIntoPredicatedClauses) {
    Program p = compile_src("BEGIN { trace(1); if (1) { trace(2); } trace(3); }");
    // ERROR's flag setter, the flag clearer, the block before the if, the
    // if's condition, its body, the block after it.
    ASSERT_EQ(p.clauses.size(), 6u);
    EXPECT_EQ(p.clauses[0].probes, std::vector<std::string>{"dtrace:::ERROR"});
    for (size_t i = 1; i < p.clauses.size(); i++)
        EXPECT_EQ(p.clauses[i].probes, std::vector<std::string>{"BEGIN"});
    EXPECT_FALSE(p.clauses[0].predicate);
    EXPECT_FALSE(p.clauses[1].predicate);
    EXPECT_FALSE(p.clauses[2].predicate) << "nothing can have faulted before the first condition";
    for (size_t i = 3; i < p.clauses.size(); i++)
        EXPECT_TRUE(p.clauses[i].predicate) << "clause " << i;
}

TEST(IfElse, ClausesWithoutIfAreLeftWhole) {
    Program p = compile_src("BEGIN /1/ { trace(1); trace(2); }");
    ASSERT_EQ(p.clauses.size(), 1u);
    EXPECT_TRUE(p.clauses[0].predicate);
    EXPECT_EQ(p.clauses[0].actions.size(), 2u);
}

TEST(IfElse, OneErrorFlagClausePerProgram) {
    Program p = compile_src("BEGIN { if (1) trace(1); } END { if (1) trace(2); }");
    size_t on_error = 0;
    for (const auto &c : p.clauses)
        on_error += c.probes.front() == "dtrace:::ERROR";
    EXPECT_EQ(on_error, 1u);
}

TEST(IfElse, EmptyBodiesGiveNoClause) {
    // The flag setter, the clearer and the condition; nothing that records.
    Program p = compile_src("BEGIN { if (1) { } }");
    ASSERT_EQ(p.clauses.size(), 3u);
    for (const auto &c : p.clauses)
        for (const auto &a : c.actions)
            EXPECT_EQ(a.kind, ActionKind::Expression);
}

TEST(IfElse, RunsTheTakenBranchAndWhatFollows) {
    EXPECT_EQ(ints(run("BEGIN { x = 3; if (x > 2) trace(1); else trace(2); trace(3); }")), (Ints{1, 3}));
    EXPECT_EQ(ints(run("BEGIN { x = 1; if (x > 2) trace(1); else trace(2); trace(3); }")), (Ints{2, 3}));
    EXPECT_EQ(ints(run("BEGIN { x = 1; if (x > 2) { trace(1); trace(4); } trace(3); }")), (Ints{3}));
}

TEST(IfElse, NestedAndChained) {
    const char *src = "BEGIN { x = %d; if (x < 10) { if (x < 5) trace(1); else trace(2); trace(3); } "
                      "else if (x < 20) trace(4); else { trace(5); if (x == 30) trace(6); } trace(7); }";
    auto with = [&](int x) {
        char buf[512];
        std::snprintf(buf, sizeof buf, src, x);
        return ints(run(buf));
    };
    EXPECT_EQ(with(1), (Ints{1, 3, 7}));
    EXPECT_EQ(with(7), (Ints{2, 3, 7}));
    EXPECT_EQ(with(15), (Ints{4, 7}));
    EXPECT_EQ(with(30), (Ints{5, 6, 7}));
    EXPECT_EQ(with(40), (Ints{5, 7}));
}

TEST(IfElse, TestIsEvaluatedOnceBeforeItsBody) {
    // The body changes what the test reads; the else must not run.
    EXPECT_EQ(ints(run("BEGIN { x = 0; if (x == 0) { x = 1; trace(1); } else trace(2); trace(x); }")), (Ints{1, 1}));
    // A test with a side effect runs once.
    EXPECT_EQ(ints(run("BEGIN { x = 0; if (x++ == 0) trace(1); else trace(2); trace(x); }")), (Ints{1, 1}));
}

TEST(IfElse, PredicateGuardsEveryPart) {
    EXPECT_EQ(ints(run("BEGIN { x = 2; } BEGIN /x == 2/ { trace(1); if (x) trace(2); trace(3); }")), (Ints{1, 2, 3}));
    EXPECT_EQ(ints(run("BEGIN { x = 3; } BEGIN /x == 2/ { trace(1); if (x) trace(2); trace(3); }")), (Ints{}));
}

TEST(IfElse, StringTests) {
    EXPECT_EQ(ints(run("BEGIN { s = \"a\"; if (s == \"a\") trace(1); else trace(2); }")), (Ints{1}));
}

TEST(IfElse, TestsMustBeScalar) {
    // The test is cooked as the right operand of `1 && test`, as DTrace's
    // rewrite cooks it, in the action list (the predicate included).
    Diagnostic d = error("BEGIN { if (\"abc\") trace(1); }");
    EXPECT_EQ(d.tag, Tag::D_OP_SCALAR);
    EXPECT_EQ(d.message, "operator && requires operands of scalar type");
    EXPECT_EQ(d.region, "action list");
    d = error("BEGIN /\"abc\"/ { if (1) trace(1); }");
    EXPECT_EQ(d.tag, Tag::D_OP_SCALAR);
    d = error("BEGIN { if (nosuch) trace(1); }");
    EXPECT_EQ(d.tag, Tag::D_IDENT_UNDEF);
    EXPECT_EQ(d.line, 1);
}

TEST(IfElse, PredicateNoLongerSeesVariablesTheBodyCreates) {
    // Without if, the actions are cooked first; with if, the predicate's
    // condition clause comes first (as in DTrace).
    EXPECT_EQ(error("BEGIN /z == 0/ { z = 1; if (z) trace(1); }").tag, Tag::D_IDENT_UNDEF);
}
