// sdk_filter_test.cpp: the SDK's filters (set_filters) as probe filters.
#include <gtest/gtest.h>

#include "sdk_filter.h"

namespace dtrace::live {
namespace {

dtrace_filter_term term(uint32_t field, uint32_t op, int64_t value, const char *string = nullptr,
                        uint32_t arg_index = 0) {
    return dtrace_filter_term{sizeof(dtrace_filter_term), field, arg_index, op, value, string};
}

TEST(SdkFilter, NoFiltersMeansEverything) {
    EXPECT_TRUE(probe_filter_of(0, nullptr).everything);
}

TEST(SdkFilter, ConvertsTheDisjunction) {
    dtrace_filter_term first[] = {term(DTRACE_FILTER_PID, DTRACE_FILTER_EQ, 42),
                                  term(DTRACE_FILTER_ARG, DTRACE_FILTER_GE, 3, nullptr, 2)};
    dtrace_filter_term second[] = {term(DTRACE_FILTER_EXECNAME, DTRACE_FILTER_NE, 0, "bash")};
    dtrace_filter filters[] = {{sizeof(dtrace_filter), 2, first}, {sizeof(dtrace_filter), 1, second}};
    ProbeFilter f = probe_filter_of(2, filters);
    ASSERT_FALSE(f.everything);
    ASSERT_EQ(f.any_of.size(), 2u);
    ASSERT_EQ(f.any_of[0].terms.size(), 2u);
    EXPECT_EQ(f.any_of[0].terms[0].field, FilterField::Pid);
    EXPECT_EQ(f.any_of[0].terms[0].value, 42);
    EXPECT_EQ(f.any_of[0].terms[1].field, FilterField::Arg);
    EXPECT_EQ(f.any_of[0].terms[1].arg_index, 2u);
    EXPECT_EQ(f.any_of[0].terms[1].op, FilterOp::Ge);
    EXPECT_EQ(f.any_of[1].terms[0].string, "bash");
    EXPECT_EQ(f.any_of[1].terms[0].op, FilterOp::Ne);
}

TEST(SdkFilter, UnknownTermsWidenAndAnEmptyClauseWantsEverything) {
    dtrace_filter_term terms[] = {term(99, DTRACE_FILTER_EQ, 1), term(DTRACE_FILTER_PID, 99, 1),
                                  term(DTRACE_FILTER_EXECNAME, DTRACE_FILTER_EQ, 0, nullptr)};
    dtrace_filter only_unknown[] = {{sizeof(dtrace_filter), 3, terms}};
    EXPECT_TRUE(probe_filter_of(1, only_unknown).everything);
    dtrace_filter_term pid[] = {term(DTRACE_FILTER_PID, DTRACE_FILTER_EQ, 7), term(99, DTRACE_FILTER_EQ, 1)};
    dtrace_filter mixed[] = {{sizeof(dtrace_filter), 2, pid}};
    ProbeFilter f = probe_filter_of(1, mixed);
    ASSERT_FALSE(f.everything);
    EXPECT_EQ(f.any_of[0].terms.size(), 1u);
}

} // namespace
} // namespace dtrace::live
