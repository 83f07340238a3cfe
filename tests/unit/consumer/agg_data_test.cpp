// Aggregation data layouts and arithmetic: the buckets of the quantizations
// (DTRACE_QUANTIZE_*, lquantize's 32-bit values, llquantize's orders of
// magnitude), the updates, per-CPU merging and DTrace's integer stddev.
#include "test_support.h"

#include "aggdata/agg_data.h"

#include <limits>

namespace dtrace::aggdata {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(AggData, QuantizeBucketValues) {
    EXPECT_EQ(quantize_bucket_value(63), 0);
    EXPECT_EQ(quantize_bucket_value(64), 1);
    EXPECT_EQ(quantize_bucket_value(65), 2);
    EXPECT_EQ(quantize_bucket_value(66), 4);
    EXPECT_EQ(quantize_bucket_value(62), -1);
    EXPECT_EQ(quantize_bucket_value(61), -2);
    EXPECT_EQ(quantize_bucket_value(0), -(int64_t{1} << 62));
    EXPECT_EQ(quantize_bucket_value(126), int64_t{1} << 62);
}

TEST(AggData, QuantizeBuckets) {
    EXPECT_EQ(quantize_bucket(0), 63);
    EXPECT_EQ(quantize_bucket(1), 64);
    EXPECT_EQ(quantize_bucket(2), 65);
    EXPECT_EQ(quantize_bucket(3), 65);
    EXPECT_EQ(quantize_bucket(4), 66);
    EXPECT_EQ(quantize_bucket(-1), 62);
    EXPECT_EQ(quantize_bucket(-2), 61);
    EXPECT_EQ(quantize_bucket(-3), 61); // values between -4 and -2 count in "-2"
    EXPECT_EQ(quantize_bucket(kMax), 126);
    EXPECT_EQ(quantize_bucket(kMin), 0);
}

TEST(AggData, LquantizeBuckets) {
    const LquantizeParams p = lquantize_params(std::vector<int64_t>{0, 10, 2});
    EXPECT_EQ(p.levels, 5);
    EXPECT_EQ(lquantize_bucket(p, -1), 0);
    EXPECT_EQ(lquantize_bucket(p, 0), 1);
    EXPECT_EQ(lquantize_bucket(p, 1), 1);
    EXPECT_EQ(lquantize_bucket(p, 2), 2);
    EXPECT_EQ(lquantize_bucket(p, 9), 5);
    EXPECT_EQ(lquantize_bucket(p, 10), 6);
    EXPECT_EQ(lquantize_bucket(p, 1000), 6);
    // DTrace aggregates lquantize() values as 32-bit integers.
    EXPECT_EQ(lquantize_bucket(p, 0x100000004LL), 3);
    EXPECT_EQ(aggregate_init(AggFunc::Lquantize, std::vector<int64_t>{0, 10, 2}).size(), 7u);
}

TEST(AggData, LlquantizeBuckets) {
    const LlquantizeParams p = llquantize_params(std::vector<int64_t>{10, 0, 2, 10});
    EXPECT_EQ(llquantize_bucket(p, 0), 0);
    EXPECT_EQ(llquantize_bucket(p, 1), 1);
    EXPECT_EQ(llquantize_bucket(p, 9), 9);
    EXPECT_EQ(llquantize_bucket(p, 10), 10);
    EXPECT_EQ(llquantize_bucket(p, 99), 18);
    EXPECT_EQ(llquantize_bucket(p, 100), 19);
    EXPECT_EQ(llquantize_bucket(p, 999), 27);
    EXPECT_EQ(llquantize_bucket(p, 1000), 28);
    EXPECT_EQ(llquantize_buckets(p), 29);
    // Fewer steps than the order's span: buckets of width span/steps.
    const LlquantizeParams q = llquantize_params(std::vector<int64_t>{2, 0, 3, 2});
    EXPECT_EQ(llquantize_bucket(q, 1), 1);
    EXPECT_EQ(llquantize_bucket(q, 2), 2);
    EXPECT_EQ(llquantize_bucket(q, 3), 2);
    EXPECT_EQ(llquantize_bucket(q, 4), 3);
    EXPECT_EQ(llquantize_bucket(q, 7), 3);
    EXPECT_EQ(llquantize_bucket(q, 8), 4);
}

// Each bucket's labelled start is the smallest value that lands in it.
TEST(AggData, LlquantizeBucketStartsAgreeWithTheBucketOfEachValue) {
    for (const std::vector<int64_t> &params : {std::vector<int64_t>{10, 0, 2, 10}, std::vector<int64_t>{2, 0, 3, 2},
                                               std::vector<int64_t>{10, 1, 4, 20}, std::vector<int64_t>{4, 2, 6, 8}}) {
        const LlquantizeParams p = llquantize_params(params);
        const std::vector<int64_t> starts = llquantize_bucket_starts(p);
        ASSERT_EQ(starts.size(), static_cast<size_t>(llquantize_buckets(p))) << params[0] << "," << params[3];
        for (size_t i = 1; i < starts.size(); i++) {
            EXPECT_EQ(llquantize_bucket(p, starts[i]), static_cast<int>(i)) << "start " << starts[i];
            EXPECT_EQ(llquantize_bucket(p, starts[i] - 1), static_cast<int>(i) - 1) << "below " << starts[i];
        }
    }
}

TEST(AggData, InitialValues) {
    EXPECT_EQ(aggregate_init(AggFunc::Min, {}), std::vector<int64_t>{kMax});
    EXPECT_EQ(aggregate_init(AggFunc::Max, {}), std::vector<int64_t>{kMin});
    EXPECT_EQ(aggregate_init(AggFunc::Avg, {}), (std::vector<int64_t>{0, 0}));
    EXPECT_EQ(aggregate_init(AggFunc::Stddev, {}).size(), 4u);
    EXPECT_EQ(aggregate_init(AggFunc::Quantize, {}).size(), 127u);
}

TEST(AggData, Updates) {
    std::vector<int64_t> count, sum, avg, min, max, q;
    for (int64_t v : {5, -3, 10}) {
        aggregate_update(AggFunc::Count, {}, count, v);
        aggregate_update(AggFunc::Sum, {}, sum, v);
        aggregate_update(AggFunc::Avg, {}, avg, v);
        aggregate_update(AggFunc::Min, {}, min, v);
        aggregate_update(AggFunc::Max, {}, max, v);
        aggregate_update(AggFunc::Quantize, {}, q, v, 2);
    }
    EXPECT_EQ(count, std::vector<int64_t>{3});
    EXPECT_EQ(sum, std::vector<int64_t>{12});
    EXPECT_EQ(avg, (std::vector<int64_t>{3, 12}));
    EXPECT_EQ(min, std::vector<int64_t>{-3});
    EXPECT_EQ(max, std::vector<int64_t>{10});
    EXPECT_EQ(q[66], 2); // 5 in [4, 8)
    EXPECT_EQ(q[61], 2); // -3 in "-2"
    EXPECT_EQ(q[67], 2); // 10 in [8, 16)
}

TEST(AggData, StddevIsDTracesIntegerFormula) {
    std::vector<int64_t> d;
    for (int64_t v : {2, 4, 4, 4, 5, 5, 7, 9})
        aggregate_update(AggFunc::Stddev, {}, d, v);
    EXPECT_EQ(d[0], 8);
    EXPECT_EQ(d[1], 40);
    EXPECT_EQ(d[3], 232); // low word of the sum of squares
    EXPECT_EQ(stddev_value(d), 2u);
    std::vector<int64_t> e;
    for (int64_t v : {-2, 2})
        aggregate_update(AggFunc::Stddev, {}, e, v);
    EXPECT_EQ(stddev_value(e), 2u);
    // Integer steps: mean 1 (3/2), E[x^2] 2 (5/2): sqrt(1) = 1.
    std::vector<int64_t> f;
    for (int64_t v : {1, 2})
        aggregate_update(AggFunc::Stddev, {}, f, v);
    EXPECT_EQ(stddev_value(f), 1u);
    EXPECT_EQ(stddev_value(std::vector<int64_t>{0, 0, 0, 0}), 0u);
}

TEST(AggData, StddevSquaresUse128Bits) {
    std::vector<int64_t> d;
    const int64_t big = int64_t{1} << 40;
    aggregate_update(AggFunc::Stddev, {}, d, big);
    aggregate_update(AggFunc::Stddev, {}, d, -big);
    EXPECT_EQ(d[2], int64_t{1} << 17); // high word of 2 * 2^80
    EXPECT_EQ(d[3], 0);
    EXPECT_EQ(stddev_value(d), static_cast<uint64_t>(big));
}

TEST(AggData, Merge) {
    std::vector<int64_t> a{3}, b{4};
    aggregate_merge(AggFunc::Count, a, b);
    EXPECT_EQ(a, std::vector<int64_t>{7});
    std::vector<int64_t> lo{5}, lo2{-5};
    aggregate_merge(AggFunc::Min, lo, lo2);
    EXPECT_EQ(lo, std::vector<int64_t>{-5});
    std::vector<int64_t> hi{5}, hi2{-5};
    aggregate_merge(AggFunc::Max, hi, hi2);
    EXPECT_EQ(hi, std::vector<int64_t>{5});
    // The 128-bit sum of squares carries from the low word into the high word.
    std::vector<int64_t> s{1, 1, 0, -1}, t{1, 1, 0, 1};
    aggregate_merge(AggFunc::Stddev, s, t);
    EXPECT_EQ(s, (std::vector<int64_t>{2, 2, 1, 0}));
}

TEST(AggData, QuantizeBucketHoldsItsValueAroundEveryPowerOfTwo) {
    std::vector<int64_t> values = {0, 1, -1, INT64_MAX, INT64_MIN, INT64_MIN + 1};
    for (int shift = 1; shift < 63; ++shift) {
        const int64_t p = int64_t{1} << shift;
        for (int64_t v : {p - 1, p, p + 1})
            values.insert(values.end(), {v, -v});
    }
    for (int64_t v : values) {
        const int b = quantize_bucket(v);
        ASSERT_GE(b, 0) << v;
        ASSERT_LT(b, kQuantizeBuckets) << v;
        if (v >= 0) {
            EXPECT_LE(quantize_bucket_value(b), v) << v;
            if (b + 1 < kQuantizeBuckets) {
                EXPECT_LT(v, quantize_bucket_value(b + 1)) << v;
            }
        } else {
            EXPECT_LE(v, quantize_bucket_value(b)) << v;
            if (b > 0) {
                EXPECT_GT(v, quantize_bucket_value(b - 1)) << v;
            }
        }
    }
}

} // namespace
} // namespace dtrace::aggdata
