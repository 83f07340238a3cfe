// Principal buffers: records round-trip, overflow drops whole records.
#include "engine/buffer.h"

#include <gtest/gtest.h>

using namespace dtrace::engine;

TEST(PrincipalBuffer, RecordsRoundTrip) {
    PrincipalBuffer b;
    b.configure({1024});
    b.begin(7, 123, 9);
    b.put_integer(42);
    b.put_bytes("hello", 5);
    ASSERT_TRUE(b.end());
    std::vector<uint8_t> data;
    uint64_t drops = 99;
    b.swap(data, drops);
    EXPECT_EQ(drops, 0u);
    ASSERT_GE(data.size(), sizeof(RecordHeader));
    RecordHeader h;
    std::memcpy(&h, data.data(), sizeof h);
    EXPECT_EQ(h.epid, 7u);
    EXPECT_EQ(h.timestamp, 123u);
    EXPECT_EQ(h.sequence, 9u);
    EXPECT_EQ(h.size, data.size());
    RecordReader r(data.data() + sizeof h, h.size - sizeof h);
    uint64_t v = 0;
    std::string_view s;
    ASSERT_TRUE(r.integer(v));
    EXPECT_EQ(v, 42u);
    ASSERT_TRUE(r.bytes(s));
    EXPECT_EQ(s, "hello");
    EXPECT_FALSE(r.integer(v)); // nothing more
}

TEST(PrincipalBuffer, FullBufferDropsWholeRecordsAndCountsThem) {
    PrincipalBuffer b;
    b.configure({sizeof(RecordHeader) + 8});
    b.begin(2, 0, 0);
    b.put_integer(1);
    EXPECT_TRUE(b.end());
    b.begin(2, 0, 0);
    b.put_integer(2);
    EXPECT_FALSE(b.end());
    std::vector<uint8_t> data;
    uint64_t drops = 0;
    b.swap(data, drops);
    EXPECT_EQ(drops, 1u);
    EXPECT_EQ(data.size(), sizeof(RecordHeader) + 8);
    // After the swap the buffer is empty again and the counter restarts.
    b.begin(2, 0, 0);
    b.put_integer(3);
    EXPECT_TRUE(b.end());
    b.swap(data, drops);
    EXPECT_EQ(drops, 0u);
}

TEST(PrincipalBuffer, AbandonForgetsTheRecord) {
    PrincipalBuffer b;
    b.configure({256});
    b.begin(2, 0, 0);
    b.put_integer(1);
    b.abandon();
    std::vector<uint8_t> data;
    uint64_t drops = 0;
    b.swap(data, drops);
    EXPECT_TRUE(data.empty());
    EXPECT_EQ(drops, 0u);
}

TEST(RecordReader, TruncatedFieldsAreRejected) {
    uint8_t bytes[6] = {5, 0, 0, 0, 'a', 'b'};
    RecordReader r(bytes, sizeof bytes);
    std::string_view s;
    EXPECT_FALSE(r.bytes(s)); // claims 5 bytes, has 2
}
