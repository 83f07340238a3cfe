// Buffer policies: fill stops (keeping END's room), ring keeps the newest
// records, switch drops; committed speculations renumber their records.
#include "engine/buffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace dtrace::engine;

namespace {

constexpr size_t kRecord = sizeof(RecordHeader) + 8; // one integer field

bool write(PrincipalBuffer &b, uint64_t value, uint64_t sequence = 0) {
    b.begin(2, 0, sequence);
    b.put_integer(value);
    return b.end();
}

// The integer of each record taken from `b`, in order.
std::vector<uint64_t> values(PrincipalBuffer &b, uint64_t *drops = nullptr) {
    std::vector<uint8_t> data;
    uint64_t dropped = 0;
    b.swap(data, dropped);
    if (drops)
        *drops = dropped;
    std::vector<uint64_t> out;
    for (size_t at = 0; at + kRecord <= data.size(); at += kRecord) {
        uint64_t v = 0;
        std::memcpy(&v, data.data() + at + sizeof(RecordHeader), sizeof v);
        out.push_back(v);
    }
    return out;
}

TEST(BufferPolicy, ParsesDTracesWords) {
    EXPECT_EQ(parse_buffer_policy("switch"), BufferPolicy::Switch);
    EXPECT_EQ(parse_buffer_policy("fill"), BufferPolicy::Fill);
    EXPECT_EQ(parse_buffer_policy("ring"), BufferPolicy::Ring);
    EXPECT_EQ(parse_buffer_policy("Ring"), std::nullopt);
}

TEST(BufferPolicy, FillStopsWhenFullCountsNoDropAndKeepsEndsRoom) {
    PrincipalBuffer b;
    b.configure({4 * kRecord, BufferPolicy::Fill, kRecord});
    EXPECT_TRUE(write(b, 1));
    EXPECT_TRUE(write(b, 2));
    EXPECT_TRUE(write(b, 3));
    EXPECT_FALSE(b.full());
    EXPECT_FALSE(write(b, 4)); // the last record's room is END's
    EXPECT_TRUE(b.full());
    uint64_t drops = 9;
    EXPECT_EQ(values(b, &drops), (std::vector<uint64_t>{1, 2, 3}));
    EXPECT_EQ(drops, 0u);
    // Taking the records does not make room: a fill buffer stays full...
    EXPECT_FALSE(write(b, 5));
    EXPECT_TRUE(values(b).empty());
    // ...until END may use its reserve.
    b.release_reserve();
    EXPECT_TRUE(write(b, 6));
    EXPECT_FALSE(write(b, 7));
    EXPECT_EQ(values(b), (std::vector<uint64_t>{6}));
}

TEST(BufferPolicy, RingKeepsTheNewestRecords) {
    PrincipalBuffer b;
    b.configure({3 * kRecord, BufferPolicy::Ring});
    for (uint64_t v = 1; v <= 100; v++)
        EXPECT_TRUE(write(b, v));
    uint64_t drops = 9;
    EXPECT_EQ(values(b, &drops), (std::vector<uint64_t>{98, 99, 100}));
    EXPECT_EQ(drops, 0u);
}

TEST(BufferPolicy, RingDropsARecordLargerThanTheBuffer) {
    PrincipalBuffer b;
    b.configure({2 * kRecord, BufferPolicy::Ring});
    EXPECT_TRUE(write(b, 1));
    b.begin(2, 0, 0);
    std::vector<char> big(3 * kRecord, 'x');
    b.put_bytes(big.data(), static_cast<uint32_t>(big.size()));
    EXPECT_FALSE(b.end());
    uint64_t drops = 0;
    EXPECT_EQ(values(b, &drops), (std::vector<uint64_t>{1}));
    EXPECT_EQ(drops, 1u);
}

TEST(BufferPolicy, SwitchDropsAndCountsWhatDoesNotFit) {
    PrincipalBuffer b;
    b.configure({2 * kRecord});
    EXPECT_TRUE(write(b, 1));
    EXPECT_TRUE(write(b, 2));
    EXPECT_FALSE(write(b, 3));
    EXPECT_FALSE(write(b, 4));
    uint64_t drops = 0;
    EXPECT_EQ(values(b, &drops), (std::vector<uint64_t>{1, 2}));
    EXPECT_EQ(drops, 2u);
}

TEST(BufferPolicy, AppendedRecordsAreRenumberedOrDroppedWhole) {
    PrincipalBuffer spec;
    spec.configure({4 * kRecord});
    write(spec, 10, 0);
    write(spec, 11, 0);
    std::vector<uint8_t> records;
    uint64_t drops = 0;
    spec.swap(records, drops);

    PrincipalBuffer principal;
    principal.configure({3 * kRecord});
    uint64_t sequence = 50;
    principal.append_records(records.data(), records.size(), sequence);
    EXPECT_EQ(sequence, 52u);
    principal.append_records(records.data(), records.size(), sequence); // 2 more do not fit in 1
    std::vector<uint8_t> data;
    principal.swap(data, drops);
    EXPECT_EQ(drops, 1u);
    ASSERT_EQ(data.size(), 2 * kRecord);
    RecordHeader h;
    std::memcpy(&h, data.data() + kRecord, sizeof h);
    EXPECT_EQ(h.sequence, 51u);
}

} // namespace
