// counters_test.cpp: pmc probe names (<counter>-<interval>) and the counter table.
#include "counters.h"

#include <gtest/gtest.h>

#include <linux/perf_event.h>

namespace dtrace::pmc {
namespace {

TEST(Counters, ParsesNamedRawAndCacheCounters) {
    auto p = parse_probe_name("page-faults-1");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->counter.type, uint32_t(PERF_TYPE_SOFTWARE));
    EXPECT_EQ(p->counter.config, uint64_t(PERF_COUNT_SW_PAGE_FAULTS));
    EXPECT_EQ(p->interval, 1u);
    p = parse_probe_name("cpu-clock-100000");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->interval, 100000u);
    EXPECT_FALSE(p->counter.hardware());
    p = parse_probe_name("r00c0-100000");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->counter.type, uint32_t(PERF_TYPE_RAW));
    EXPECT_EQ(p->counter.config, 0xc0u);
    p = parse_probe_name("L1-dcache-load-misses-10000");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->counter.type, uint32_t(PERF_TYPE_HW_CACHE));
    EXPECT_EQ(p->counter.config,
              PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16));
    EXPECT_TRUE(parse_probe_name("LLC-prefetches-10"));
    EXPECT_TRUE(parse_probe_name("LLC-prefetch-misses-10"));
}

TEST(Counters, RefusesWhatIsNoCounterProbe) {
    for (const char *name : {"page-faults", "page-faults-0", "page-faults-x", "page-faults-", "bogus-10", "r-10",
                             "rxyz-10", "r12345678901234567-10", "-10", "page-faults-99999999999999999999"})
        EXPECT_FALSE(parse_probe_name(name)) << name;
}

TEST(Counters, SoftwareCountersCountHere) {
    std::string why;
    EXPECT_TRUE(countable(parse_probe_name("page-faults-1")->counter, why)) << why;
}

} // namespace
} // namespace dtrace::pmc
