// Kernel aggregation entries as the engine's data: key encoding, per-CPU
// folding, and the increments merged at each read.
#include "compiled_clauses.h"
#include "fastpath/aggregation_code.h"
#include "fastpath/aggregation_merge.h"

#include <cstring>

using namespace dtrace;
using fastpath::KernelEntry;

namespace {

struct Planned {
    std::unique_ptr<compiler::Program> program;
    fastpath::MapPlan plan;
    const fastpath::KernelAggregation *agg = nullptr;
};

Planned plan_for(const std::string &source) {
    Planned p;
    p.program = test::compile_d(source);
    fastpath::build_program(p.plan, {6, 16, false}, test::clauses_of(*p.program));
    p.agg = &p.plan.aggregations.begin()->second;
    return p;
}

std::string word(uint64_t v) {
    return std::string(reinterpret_cast<const char *>(&v), 8);
}

std::string comm(const char *name) {
    std::string s(16, '\0');
    std::memcpy(s.data(), name, std::strlen(name));
    return s;
}

} // namespace

TEST(FastpathMerge, KeysTakeTheEnginesEncoding) {
    Planned p = plan_for("a:::b { @[execname, (int)arg0, arg1] = count(); }");
    const std::string kernel = comm("bash") + word(0xfffffffffffffffeull) + word(7);
    EXPECT_EQ(fastpath::engine_key(*p.agg, kernel), std::string("bash\0", 5) + word(0xfffffffe).substr(0, 4) + word(7));
}

TEST(FastpathMerge, CpusFoldAsTheEngineMergesThem) {
    Planned sum = plan_for("a:::b { @ = sum(arg0); }");
    EXPECT_EQ(fastpath::engine_data(*sum.agg, {{5}, {7}}), (std::vector<int64_t>{12}));
    Planned min = plan_for("a:::b { @ = min(arg0); }");
    // A CPU that never saw the key (count 0) does not make the minimum 0.
    EXPECT_EQ(fastpath::engine_data(*min.agg, {{0, 0}, {2, 9}, {1, 4}}), (std::vector<int64_t>{4}));
    Planned avg = plan_for("a:::b { @ = avg(arg0); }");
    EXPECT_EQ(fastpath::engine_data(*avg.agg, {{1, 10}, {2, 20}}), (std::vector<int64_t>{3, 30}));
}

TEST(FastpathMerge, EachReadMergesOnlyWhatChanged) {
    Planned p = plan_for("a:::b { @[arg0] = count(); }");
    fastpath::AggregationDeltas deltas;
    std::vector<KernelEntry> entries{{word(1), {{3}, {4}}}, {word(2), {{1}, {0}}}};
    auto first = deltas.changes(*p.agg, entries);
    ASSERT_EQ(first.size(), 2u);
    EXPECT_EQ(first[0].second, (std::vector<int64_t>{7}));
    EXPECT_TRUE(deltas.changes(*p.agg, entries).empty()); // nothing moved
    entries[0].cpu_values = {{5}, {4}};
    auto third = deltas.changes(*p.agg, entries);
    ASSERT_EQ(third.size(), 1u);
    EXPECT_EQ(third[0].first, word(1));
    EXPECT_EQ(third[0].second, (std::vector<int64_t>{2}));
}

TEST(FastpathMerge, MinAndMaxMergeTheirValue) {
    Planned p = plan_for("a:::b { @ = max(arg0); }");
    fastpath::AggregationDeltas deltas;
    std::vector<KernelEntry> entries{{word(0), {{2, 8}}}};
    EXPECT_EQ(deltas.changes(*p.agg, entries)[0].second, (std::vector<int64_t>{8}));
    entries[0].cpu_values = {{3, 8}}; // one more firing, same maximum
    EXPECT_EQ(deltas.changes(*p.agg, entries)[0].second, (std::vector<int64_t>{8}));
}

TEST(FastpathMerge, StddevSquaresIncreaseAcrossTheirWords) {
    Planned p = plan_for("a:::b { @ = stddev(arg0); }");
    fastpath::AggregationDeltas deltas;
    // squares: 2^64 - 1 (high 0, low all ones), then 2^64 + 4 (high 1, low 4).
    std::vector<KernelEntry> entries{{word(0), {{1, 5, 0, -1}}}};
    EXPECT_EQ(deltas.changes(*p.agg, entries)[0].second, (std::vector<int64_t>{1, 5, 0, -1}));
    entries[0].cpu_values = {{2, 7, 1, 4}};
    // An increase of 5: the low word borrows from the high one.
    EXPECT_EQ(deltas.changes(*p.agg, entries)[0].second, (std::vector<int64_t>{1, 2, 0, 5}));
}

TEST(FastpathMerge, AKeylessCountsEntryIsAbsentUntilFired) {
    Planned p = plan_for("a:::b { @ = count(); }");
    ASSERT_TRUE(p.agg->single_entry); // a per-CPU array: its one entry is always there
    fastpath::AggregationDeltas deltas;
    std::vector<KernelEntry> entries{{std::string(4, '\0'), {{0}, {0}}}};
    EXPECT_TRUE(deltas.changes(*p.agg, entries).empty());
    entries[0].cpu_values = {{0}, {3}};
    auto fired = deltas.changes(*p.agg, entries);
    ASSERT_EQ(fired.size(), 1u);
    EXPECT_EQ(fired[0].first, "");
    EXPECT_EQ(fired[0].second, (std::vector<int64_t>{3}));
}
