// kernel_filter_test.cpp: probe filters in the BPF program's form, widened
// (never narrowed) where the program cannot hold them.
#include <gtest/gtest.h>

#include "kernel_filter.h"

namespace dtrace::live {
namespace {

FilterTerm pid_is(int64_t pid) {
    return FilterTerm{FilterField::Pid, 0, FilterOp::Eq, pid, ""};
}

TEST(KernelFilter, EverythingPassesWithoutFilter) {
    EXPECT_EQ(encode_filter(ProbeFilter{}, 3).nclauses, 0u);
}

TEST(KernelFilter, EncodesClausesAndTerms) {
    ProbeFilter f{false,
                  {{{pid_is(42), FilterTerm{FilterField::Arg, 2, FilterOp::Ge, 7, ""}}},
                   {{FilterTerm{FilterField::Execname, 0, FilterOp::Ne, 0, "bash"}}}}};
    live_filter out = encode_filter(f, 3);
    ASSERT_EQ(out.nclauses, 2u);
    ASSERT_EQ(out.clauses[0].nterms, 2u);
    EXPECT_EQ(out.clauses[0].terms[0].field, LIVE_FIELD_PID);
    EXPECT_EQ(out.clauses[0].terms[0].value, 42);
    EXPECT_EQ(out.clauses[0].terms[1].field, LIVE_FIELD_ARG);
    EXPECT_EQ(out.clauses[0].terms[1].arg, 2);
    EXPECT_EQ(out.clauses[0].terms[1].op, LIVE_OP_GE);
    EXPECT_EQ(out.clauses[1].terms[0].op, LIVE_OP_NE);
    EXPECT_STREQ(out.clauses[1].terms[0].string, "bash");
}

TEST(KernelFilter, WidensWhatTheProgramCannotTest) {
    // An argument the probe does not have, an ordered comparison of names and
    // a name longer than comm are left out of their conjunctions.
    ProbeFilter f{false,
                  {{{pid_is(1), FilterTerm{FilterField::Arg, 5, FilterOp::Eq, 0, ""},
                     FilterTerm{FilterField::Execname, 0, FilterOp::Lt, 0, "a"},
                     FilterTerm{FilterField::Execname, 0, FilterOp::Eq, 0, "a-name-longer-than-comm"}}}}};
    live_filter out = encode_filter(f, 2);
    ASSERT_EQ(out.nclauses, 1u);
    EXPECT_EQ(out.clauses[0].nterms, 1u);
    // A clause left with no term wants everything.
    ProbeFilter g{false, {{{pid_is(1)}}, {{FilterTerm{FilterField::Arg, 9, FilterOp::Eq, 0, ""}}}}};
    EXPECT_EQ(encode_filter(g, 2).nclauses, 0u);
    // More clauses than the program holds: everything passes.
    ProbeFilter many{false, std::vector<FilterConjunction>(LIVE_MAX_CLAUSES + 1, FilterConjunction{{pid_is(1)}})};
    EXPECT_EQ(encode_filter(many, 2).nclauses, 0u);
    // More terms than a conjunction holds: the first ones are kept.
    ProbeFilter long_one{false, {{std::vector<FilterTerm>(LIVE_MAX_TERMS + 2, pid_is(3))}}};
    EXPECT_EQ(encode_filter(long_one, 2).clauses[0].nterms, static_cast<uint32_t>(LIVE_MAX_TERMS));
}

TEST(KernelFilter, NoClauseWantedPassesNothing) {
    live_filter out = encode_filter(ProbeFilter{false, {}}, 0);
    ASSERT_EQ(out.nclauses, 1u);
    EXPECT_EQ(out.clauses[0].nterms, 2u); // pid == 0 && pid != 0
}

} // namespace
} // namespace dtrace::live
