// Size options against the machine: what fits is kept, what does not is
// halved (bufresize=auto) or refused (manual), and nspec is never resized.
#include "engine/aggregation_table.h"
#include "engine/resource_sizing.h"

#include <gtest/gtest.h>
#include <malloc.h>

using namespace dtrace::engine;

namespace {
constexpr uint64_t kGiB = uint64_t(1) << 30;
constexpr uint64_t kMiB = uint64_t(1) << 20;
} // namespace

TEST(ResourceSizing, SizesThatFitAreKeptWithoutANotice) {
    Options o;
    SizingOutcome out = size_for_machine(o, {2, true, true}, 16 * kGiB);
    EXPECT_FALSE(out.refusal);
    EXPECT_TRUE(out.notices.empty());
    EXPECT_EQ(o.number("bufsize"), int64_t(4 * kMiB));
}

TEST(ResourceSizing, AutoResizeHalvesWhatDoesNotFitAndSaysSo) {
    Options o;
    ASSERT_EQ(o.set("bufsize", "100t"), std::nullopt);
    // Two CPUs, each a buffer and the consumer's copy: 1g / 4 = 256m.
    SizingOutcome out = size_for_machine(o, {2, false, false}, kGiB + 2 * kMiB);
    ASSERT_FALSE(out.refusal);
    EXPECT_EQ(o.number("bufsize"), int64_t(200 * kMiB)); // 100t halved 19 times
    ASSERT_EQ(out.notices.size(), 1u);
    EXPECT_EQ(out.notices[0], "buffer size lowered to 200m");
}

TEST(ResourceSizing, ManualResizeRefusesWhatDoesNotFit) {
    Options o;
    ASSERT_EQ(o.set("bufsize", "100t"), std::nullopt);
    ASSERT_EQ(o.set("bufresize", "manual"), std::nullopt);
    SizingOutcome out = size_for_machine(o, {2, false, false}, 16 * kGiB);
    EXPECT_EQ(out.refusal, "Not enough space");
    EXPECT_EQ(o.number("bufsize"), int64_t(100) << 40); // left as the user set it
}

TEST(ResourceSizing, NspecIsNeverResized) {
    Options o;
    ASSERT_EQ(o.set("nspec", "4294967295"), std::nullopt);
    EXPECT_EQ(size_for_machine(o, {2, false, true}, 16 * kGiB).refusal, "Not enough space"); // above INT_MAX
    ASSERT_EQ(o.set("nspec", "100000000"), std::nullopt);
    EXPECT_EQ(size_for_machine(o, {2, false, true}, kGiB).refusal, "Not enough space"); // its bookkeeping alone
}

TEST(ResourceSizing, SpeculationBuffersCountPerSpeculationAndCpu) {
    Options o;
    ASSERT_EQ(o.set("nspec", "1000"), std::nullopt);
    ASSERT_EQ(o.set("specsize", "1m"), std::nullopt);
    SizingOutcome out = size_for_machine(o, {4, false, true}, kGiB);
    ASSERT_FALSE(out.refusal);
    EXPECT_EQ(o.number("specsize"), int64_t(128 * 1024)); // 4000 buffers of 1m do not fit 1g less the rest
    ASSERT_EQ(out.notices.size(), 1u);
    EXPECT_EQ(out.notices[0], "speculation size lowered to 128k");
    // A program that does not speculate takes no speculation buffers.
    Options quiet;
    ASSERT_EQ(quiet.set("nspec", "1000"), std::nullopt);
    ASSERT_EQ(quiet.set("specsize", "1m"), std::nullopt);
    EXPECT_TRUE(size_for_machine(quiet, {4, false, false}, kGiB).notices.empty());
}

TEST(ResourceSizing, NothingOfEightBytesFitsIsRefused) {
    Options o;
    EXPECT_EQ(size_for_machine(o, {2, false, false}, 16).refusal, "Not enough space");
}

TEST(ResourceSizing, SizesPrintAsDTracePrintsThem) {
    EXPECT_EQ(size_text(2 * kMiB), "2m");
    EXPECT_EQ(size_text(512 * 1024), "512k");
    EXPECT_EQ(size_text(3355443200), "3355443200 bytes");
    EXPECT_EQ(size_text(4 * kGiB), "4g");
    EXPECT_EQ(size_text(512), "512 "); // dtrace(1) prints its unit letter, a blank below a kilobyte
}

// aggsize is counted in the bytes the table really takes: what the table
// charges for its entries is never less than what the allocator gave it,
// nor more than twice that.
TEST(ResourceSizing, AggregationEntriesChargeTheBytesTheyTake) {
    for (size_t key_size : {size_t(8), size_t(40)}) {
        const size_t before = mallinfo2().uordblks;
        AggregationTable table;
        size_t charged = 0;
        constexpr int kEntries = 20000;
        for (int i = 0; i < kEntries; i++) {
            std::string key(key_size, 'k');
            std::memcpy(key.data(), &i, sizeof i);
            table.insert(key, AggregationTable::hash(key), std::vector<int64_t>(1));
            charged += AggregationTable::entry_bytes(key.size(), 1);
        }
        const size_t taken = mallinfo2().uordblks - before;
        EXPECT_GE(charged, taken) << "key of " << key_size << " bytes";
        EXPECT_LE(charged, 2 * taken) << "key of " << key_size << " bytes";
    }
}

TEST(ResourceSizing, AutoResizeDividesByTheShortfallAsDTraceDoes) {
    // Three speculation buffers (nspec 3, one CPU) of 1m where 1.5m is left:
    // one of three could be had, so DTrace divides by 4 (the power of two
    // at or above 3), not 2, though 512k would have fitted.
    Options o;
    ASSERT_EQ(o.set("nspec", "3"), std::nullopt);
    ASSERT_EQ(o.set("specsize", "1m"), std::nullopt);
    ASSERT_EQ(o.set("bufsize", "8k"), std::nullopt);
    ASSERT_EQ(o.set("dynvarsize", "8k"), std::nullopt);
    const uint64_t available = 3 * 64 + 2 * 8 * 1024 + 3 * kMiB / 2 + 8 * 1024;
    SizingOutcome out = size_for_machine(o, {1, false, true}, available);
    ASSERT_FALSE(out.refusal);
    EXPECT_EQ(o.number("specsize"), int64_t(256 * 1024));
    ASSERT_EQ(out.notices.size(), 1u);
    EXPECT_EQ(out.notices[0], "speculation size lowered to 256k");
}

TEST(ResourceSizing, FillBuffersSmallerThanEndsReserveAreRefused) {
    ResourceNeeds needs{1, true, false, 4096};
    Options small;
    ASSERT_EQ(small.set("bufsize", "2k"), std::nullopt);
    EXPECT_EQ(size_for_machine(small, needs, 16 * kGiB).refusal, "END enablings exceed size of principal buffer");
    // DTrace checks every buffer against the reserve: the aggregation buffer too.
    Options aggregations;
    ASSERT_EQ(aggregations.set("aggsize", "1k"), std::nullopt);
    EXPECT_EQ(size_for_machine(aggregations, needs, 16 * kGiB).refusal,
              "END enablings exceed size of principal buffer");
    // A size lowered to fit the machine below the reserve is refused the same way.
    Options lowered;
    ASSERT_EQ(lowered.set("bufsize", "1m"), std::nullopt);
    needs.end_reserve = 512 * 1024;
    EXPECT_EQ(size_for_machine(lowered, needs, kMiB).refusal, "END enablings exceed size of principal buffer");
    // Without a reserve (switch and ring policies) the same sizes are fine.
    needs.end_reserve = 0;
    Options fine;
    ASSERT_EQ(fine.set("bufsize", "2k"), std::nullopt);
    EXPECT_FALSE(size_for_machine(fine, needs, 16 * kGiB).refusal);
}

TEST(ResourceSizing, RatesAreBroughtWithinTheKernelsBounds) {
    Options o;
    ASSERT_EQ(o.set("statusrate", "20s"), std::nullopt);
    ASSERT_EQ(o.set("cleanrate", "10000hz"), std::nullopt);
    SizingOutcome out = size_for_machine(o, {1, false, false}, 16 * kGiB);
    ASSERT_FALSE(out.refusal);
    ASSERT_EQ(out.notices.size(), 2u);
    EXPECT_EQ(out.notices[0], "cleaning rate reduced to 5000 hz");
    EXPECT_EQ(out.notices[1], "status rate increased to once every 10 seconds");
    EXPECT_EQ(o.number("statusrate"), int64_t(10'000'000'000));
    EXPECT_EQ(o.number("cleanrate"), int64_t(200'000));
    // The defaults are within the bounds: nothing to say.
    Options defaults;
    EXPECT_TRUE(size_for_machine(defaults, {1, false, false}, 16 * kGiB).notices.empty());
}
