// region_order_test.cpp: the merge of a region's sorted runs against a stable sort.
#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "nettrace/region_order.h"

namespace dtrace::etw::nettrace {
namespace {

std::vector<uint32_t> delivered(RegionOrder &order, const std::vector<int64_t> &times) {
    order.clear();
    for (int64_t t : times) {
        order.add(t);
    }
    order.start();
    std::vector<uint32_t> out;
    uint32_t index = 0;
    while (order.next(index)) {
        out.push_back(index);
    }
    return out;
}

std::vector<uint32_t> stable_sorted(const std::vector<int64_t> &times) {
    std::vector<uint32_t> indices(times.size());
    std::iota(indices.begin(), indices.end(), 0);
    std::stable_sort(indices.begin(), indices.end(), [&](uint32_t a, uint32_t b) { return times[a] < times[b]; });
    return indices;
}

TEST(RegionOrder, RunsOfThreadsMergeAsAStableSortWouldOrderThem) {
    std::mt19937 random(7);
    RegionOrder order;
    for (int trial = 0; trial < 2000; ++trial) {
        std::vector<int64_t> times;
        const int runs = 1 + trial % 40;
        for (int r = 0; r < runs; ++r) {
            int64_t t = random() % 50;
            for (int i = 0, n = static_cast<int>(random() % 20); i < n; ++i) {
                t += random() % 3; // equal timestamps too
                times.push_back(t);
            }
        }
        EXPECT_EQ(delivered(order, times), stable_sorted(times)) << "trial " << trial;
    }
}

TEST(RegionOrder, ThreadsBlocksFollowEachOtherInTheirLanes) {
    // Four threads' blocks in turn, each thread's later blocks starting
    // where its earlier ones ended (equal timestamps at the joins too).
    std::vector<int64_t> times;
    for (int block = 0; block < 16; ++block) {
        const int thread = block % 4;
        for (int i = 0; i < 5; ++i) {
            times.push_back((block / 4) * 10 + i * 2 + (thread == 3 ? 0 : 1) + (i == 4 ? 2 : 0));
        }
    }
    RegionOrder order;
    EXPECT_EQ(delivered(order, times), stable_sorted(times));
}

TEST(RegionOrder, EventsAtTheLargestTimestampComeBeforeNoneAndInFileOrder) {
    // Runs that end early are exhausted with the largest timestamp as key:
    // a live run's event at that timestamp still wins over them.
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    const std::vector<int64_t> times = {5, kMax, 3, kMax, kMin, 7, kMax, 2};
    RegionOrder order;
    EXPECT_EQ(delivered(order, times), stable_sorted(times));
}

TEST(RegionOrder, MoreRunsThanTheTreeRanksAreSorted) {
    std::vector<int64_t> times(100000);
    for (size_t i = 0; i < times.size(); ++i) {
        times[i] = static_cast<int64_t>(times.size() - i) / 2; // every pair a run of its own
    }
    RegionOrder order;
    EXPECT_EQ(delivered(order, times), stable_sorted(times));
    EXPECT_TRUE(delivered(order, {}).empty());
}

} // namespace
} // namespace dtrace::etw::nettrace
