// predicate_filter_test.cpp: which conjuncts of a predicate the compiler
// hoists into a clause's filter (predicate_filter.h), from D source.
#include "compiler/compile.h"
#include "compiler/parser.h"

#include <gtest/gtest.h>

namespace {

using namespace dtrace::compiler;
using Field = FilterTerm::Field;
using Cmp = FilterTerm::Cmp;

// The filter of the only clause of `BEGIN /predicate/ { }`, with $target 4242.
PredicateFilter filter_of(const std::string &predicate, const std::string &declarations = "") {
    ParseOptions po;
    po.from_file = true;
    po.macro_vars["target"] = "4242";
    ParseResult parsed = parse_program(declarations + "BEGIN / " + predicate + " / { }", po);
    EXPECT_TRUE(parsed.program) << (parsed.error ? parsed.error->message : "");
    if (!parsed.program)
        return {{Field::Pid, 0, Cmp::Eq, -999, "parse failed"}};
    CompileResult compiled = compile(*parsed.program, CompileOptions{});
    EXPECT_TRUE(compiled.program) << (compiled.error ? compiled.error->message : "");
    if (!compiled.program || compiled.program->clauses.empty())
        return {{Field::Pid, 0, Cmp::Eq, -999, "compile failed"}};
    return compiled.program->clauses.back().filter;
}

FilterTerm term(Field f, Cmp op, int64_t value, uint32_t arg = 0) {
    return FilterTerm{f, arg, op, value, {}};
}

TEST(PredicateFilter, PidAgainstTarget) {
    EXPECT_EQ(filter_of("pid == $target"), PredicateFilter{term(Field::Pid, Cmp::Eq, 4242)});
}

TEST(PredicateFilter, EveryFieldAndComparison) {
    EXPECT_EQ(filter_of("tid != 7"), PredicateFilter{term(Field::Tid, Cmp::Ne, 7)});
    EXPECT_EQ(filter_of("uid == 0"), PredicateFilter{term(Field::Uid, Cmp::Eq, 0)});
    EXPECT_EQ(filter_of("gid == 100"), PredicateFilter{term(Field::Gid, Cmp::Eq, 100)});
    EXPECT_EQ(filter_of("arg0 < 3"), PredicateFilter{term(Field::Arg, Cmp::Lt, 3, 0)});
    EXPECT_EQ(filter_of("arg2 <= -1"), PredicateFilter{term(Field::Arg, Cmp::Le, -1, 2)});
    EXPECT_EQ(filter_of("arg9 > 5"), PredicateFilter{term(Field::Arg, Cmp::Gt, 5, 9)});
    EXPECT_EQ(filter_of("arg1 >= 4096"), PredicateFilter{term(Field::Arg, Cmp::Ge, 4096, 1)});
}

TEST(PredicateFilter, ConstantOnTheLeftMirrorsTheComparison) {
    EXPECT_EQ(filter_of("3 < arg0"), PredicateFilter{term(Field::Arg, Cmp::Gt, 3, 0)});
    EXPECT_EQ(filter_of("$target == pid"), PredicateFilter{term(Field::Pid, Cmp::Eq, 4242)});
}

TEST(PredicateFilter, Execname) {
    FilterTerm eq{Field::Execname, 0, Cmp::Eq, 0, "bash"};
    EXPECT_EQ(filter_of("execname == \"bash\""), PredicateFilter{eq});
    FilterTerm ne{Field::Execname, 0, Cmp::Ne, 0, "sshd"};
    EXPECT_EQ(filter_of("\"sshd\" != execname"), PredicateFilter{ne});
    // Ordered string comparisons are left to the VM.
    EXPECT_TRUE(filter_of("execname < \"m\"").empty());
}

TEST(PredicateFilter, ConjunctsAreHoistedTogether) {
    EXPECT_EQ(filter_of("pid == $target && arg0 == 1 && execname == \"x\""),
              (PredicateFilter{term(Field::Pid, Cmp::Eq, 4242), term(Field::Arg, Cmp::Eq, 1, 0),
                               FilterTerm{Field::Execname, 0, Cmp::Eq, 0, "x"}}));
}

TEST(PredicateFilter, DisjunctionIsNotHoisted) {
    EXPECT_TRUE(filter_of("pid == 1 || pid == 2").empty());
    // ... but the conjuncts beside it are.
    EXPECT_EQ(filter_of("(pid == 1 || pid == 2) && tid == 3"), PredicateFilter{term(Field::Tid, Cmp::Eq, 3)});
}

TEST(PredicateFilter, ClauseVariablesAreNotHoistedButDoNotStopHoisting) {
    EXPECT_TRUE(filter_of("self->ts", "self int ts;\n").empty());
    EXPECT_TRUE(filter_of("this->x == 1", "this int x;\n").empty());
    EXPECT_EQ(filter_of("self->ts && pid == 5", "self int ts;\n"), PredicateFilter{term(Field::Pid, Cmp::Eq, 5)});
    EXPECT_EQ(filter_of("x == 1 && pid == 5", "int x;\n"), PredicateFilter{term(Field::Pid, Cmp::Eq, 5)});
}

TEST(PredicateFilter, SideEffectsStopHoistingAfterThem) {
    // x++ runs for every event reaching the clause: skipping events would skip it.
    EXPECT_TRUE(filter_of("x++ && pid == 5", "int x;\n").empty());
    EXPECT_TRUE(filter_of("(x = 2) && pid == 5", "int x;\n").empty());
    // Before the effect, a conjunct is a condition for reaching it at all.
    EXPECT_EQ(filter_of("pid == 5 && x++", "int x;\n"), PredicateFilter{term(Field::Pid, Cmp::Eq, 5)});
}

TEST(PredicateFilter, FaultsStopHoistingAfterThem) {
    // A load or a division may fault, firing ERROR: that must still happen.
    EXPECT_TRUE(filter_of("*(int *)arg1 == 0 && pid == 5").empty());
    EXPECT_TRUE(filter_of("10 / arg1 == 2 && pid == 5").empty());
    EXPECT_TRUE(filter_of("strlen(copyinstr(arg0)) > 1 && pid == 5").empty());
    EXPECT_EQ(filter_of("pid == 5 && 10 / arg1 == 2"), PredicateFilter{term(Field::Pid, Cmp::Eq, 5)});
}

TEST(PredicateFilter, SignednessOfOrderedComparisons) {
    // uid_t is unsigned: D compares unsigned, which the filter cannot say.
    EXPECT_TRUE(filter_of("uid < 1000").empty());
    EXPECT_TRUE(filter_of("arg0 < 3ul").empty());
    // int64_t against unsigned int compares signed, as in C.
    EXPECT_EQ(filter_of("arg0 < 3u"), PredicateFilter{term(Field::Arg, Cmp::Lt, 3, 0)});
    EXPECT_TRUE(filter_of("(uint64_t)arg0 > 5").empty());
    // Equality is the same either way.
    EXPECT_EQ(filter_of("uid == 1000u"), PredicateFilter{term(Field::Uid, Cmp::Eq, 1000)});
    // A negative constant keeps its 64-bit value.
    EXPECT_EQ(filter_of("arg0 == -1"), PredicateFilter{term(Field::Arg, Cmp::Eq, -1, 0)});
}

TEST(PredicateFilter, Casts) {
    // A cast that leaves the value alone is looked through...
    EXPECT_EQ(filter_of("(int64_t)arg0 == 4"), PredicateFilter{term(Field::Arg, Cmp::Eq, 4, 0)});
    EXPECT_EQ(filter_of("(int)pid == 4"), PredicateFilter{term(Field::Pid, Cmp::Eq, 4)});
    // ... one that narrows it is not.
    EXPECT_TRUE(filter_of("(uint8_t)arg0 == 4").empty());
    EXPECT_TRUE(filter_of("(int)arg0 == 4").empty());
}

TEST(PredicateFilter, BareFieldMeansNonZero) {
    EXPECT_EQ(filter_of("arg3"), PredicateFilter{term(Field::Arg, Cmp::Ne, 0, 3)});
}

TEST(PredicateFilter, OtherExpressionsAreNotHoisted) {
    EXPECT_TRUE(filter_of("pid + 1 == 5").empty());
    EXPECT_TRUE(filter_of("pid == tid").empty());
    EXPECT_TRUE(filter_of("!(pid == 5)").empty());
    EXPECT_TRUE(filter_of("ppid == 1").empty());
}

TEST(PredicateFilter, ClauseWithoutPredicateHasNoFilter) {
    ParseOptions po;
    po.from_file = true;
    ParseResult parsed = parse_program("BEGIN { }", po);
    ASSERT_TRUE(parsed.program);
    CompileResult compiled = compile(*parsed.program, CompileOptions{});
    ASSERT_TRUE(compiled.program);
    EXPECT_TRUE(compiled.program->clauses.at(0).filter.empty());
}

} // namespace
