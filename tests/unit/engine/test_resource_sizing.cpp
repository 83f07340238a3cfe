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
