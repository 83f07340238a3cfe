// damage_test.cpp: truncated, corrupt and unknown streams replay what is valid and say where.
#include <algorithm>

#include <gtest/gtest.h>

#include "sample_streams.h"
#include "test_support.h"

namespace dtrace::etw::nettrace {
namespace {

using namespace fixture;

TEST(Damage, TruncatedStreamDeliversTheCompleteBlocksAndNamesTheOffset) {
    Bytes stream = sample_stream(5, true);
    stream.resize(stream.size() - 40); // inside the last EventBlock
    auto opened = test::open_bytes(stream);
    ASSERT_TRUE(opened.ok()) << opened.error();
    const auto events = test::read_all(*opened.value());
    EXPECT_EQ(events.size(), kSampleEvents - 1);
    const ReaderStats &stats = opened.value()->stats();
    ASSERT_EQ(stats.problem_count, 1u);
    EXPECT_NE(stats.problems[0].message.find("mem.nettrace: offset 0x"), std::string::npos)
        << stats.problems[0].message;
    EXPECT_NE(stats.problems[0].message.find("the stream ends inside"), std::string::npos) << stats.problems[0].message;
    EXPECT_EQ(stats.corrupt_buffers, 1u);
}

TEST(Damage, StreamWithoutEndMarkIsReported) {
    Bytes stream = sample_stream(6, true);
    stream.resize(stream.size() - 4); // the EndOfStream block
    auto opened = test::open_bytes(stream);
    ASSERT_TRUE(opened.ok()) << opened.error();
    EXPECT_EQ(test::read_all(*opened.value()).size(), kSampleEvents);
    ASSERT_EQ(opened.value()->stats().problem_count, 1u);
    EXPECT_NE(opened.value()->stats().problems[0].message.find("without its EndOfStream"), std::string::npos);
}

TEST(Damage, CorruptEventRowSkipsTheRestOfItsBlockOnly) {
    NetTraceBuilder b(sample_trace_spec(4, true));
    b.metadata({{1, "Demo", 1, "E", 0, 0, 4, 0, {}, {}}});
    EventSpec e;
    e.metadata_id = 1;
    e.thread = 7;
    e.payload = {1, 2, 3, 4};
    std::vector<EventSpec> rows(3, e);
    for (size_t i = 0; i < rows.size(); ++i) {
        rows[i].timestamp = 2000 + static_cast<int64_t>(i);
    }
    b.events(rows);
    const size_t cut_at = b.bytes().size() - 3; // the last row's payload, before the end tag
    b.events(rows);
    Bytes stream = b.finish();
    // Make the first block's last row claim a payload beyond the block: its
    // payload-size byte (flags 0x00: only the timestamp delta, then payload).
    stream[cut_at - 3] = 0x80; // flags: payload size follows
    stream[cut_at - 2] = 0x7F; // ... as 127 bytes
    auto opened = test::open_bytes(stream);
    ASSERT_TRUE(opened.ok()) << opened.error();
    const auto events = test::read_all(*opened.value());
    EXPECT_EQ(events.size(), 5u); // two of the first block, three of the second
    ASSERT_GE(opened.value()->stats().problem_count, 1u);
    EXPECT_NE(opened.value()->stats().problems[0].message.find("EventBlock at offset"), std::string::npos)
        << opened.value()->stats().problems[0].message;
}

// A compressed header is read without a bounds check a byte when the block
// holds more than any header can take (the first rows here), else with one
// (the last): a varuint without its last byte, or a varuint32 past 32 bits,
// is the same damage either way.
TEST(Damage, ABadVaruintInACompressedHeaderIsDamageWhereverItsRowIs) {
    const Bytes marker(40, 0xAB);
    for (const bool last_row : {false, true}) {
        for (const Bytes &bad : {Bytes(11, 0xFF), Bytes{0xFF, 0xFF, 0xFF, 0xFF, 0x7F}}) {
            NetTraceBuilder b(sample_trace_spec(5, true));
            b.metadata({{1, "Demo", 1, "E", 0, 0, 4, 0, {}, {}}});
            std::vector<EventSpec> rows(3);
            for (size_t i = 0; i < rows.size(); ++i) {
                rows[i].metadata_id = 1;
                rows[i].thread = 7;
                rows[i].timestamp = 2000 + static_cast<int64_t>(i);
                rows[i].payload = Bytes(200 + i, static_cast<uint8_t>(i)); // sizes differ: each row states its own
            }
            rows[last_row ? 2 : 0].payload = marker;
            b.events(rows);
            Bytes stream = b.finish();
            // The payload size is the header's last field: one byte (40)
            // before the payload. Overwrite it and the payload's first bytes.
            const auto at = std::search(stream.begin(), stream.end(), marker.begin(), marker.end());
            ASSERT_NE(at, stream.end());
            ASSERT_EQ(*(at - 1), 40);
            std::copy(bad.begin(), bad.end(), at - 1);
            auto opened = test::open_bytes(stream);
            ASSERT_TRUE(opened.ok()) << opened.error();
            EXPECT_EQ(test::read_all(*opened.value()).size(), last_row ? 2u : 0u);
            const ReaderStats &stats = opened.value()->stats();
            ASSERT_EQ(stats.problem_count, 1u);
            EXPECT_EQ(stats.corrupt_buffers, 1u);
            EXPECT_NE(stats.problems[0].message.find("an event header or payload runs past the end of its block"),
                      std::string::npos)
                << stats.problems[0].message;
        }
    }
}

TEST(Damage, UnknownVersionsAndFormatsAreRefusedWithTheReason) {
    Bytes v7 = sample_stream(6, true);
    v7[12] = 7; // major version
    auto opened = test::open_bytes(v7);
    ASSERT_FALSE(opened.ok());
    EXPECT_NE(opened.error().find("NetTrace version 7.0"), std::string::npos) << opened.error();

    Bytes netperf = {0x14, 0, 0, 0, '!', 'F', 'a', 's', 't', 'S', 'e', 'r', 'i', 'a', 'l'};
    auto legacy = test::open_bytes(netperf);
    ASSERT_FALSE(legacy.ok());
    EXPECT_NE(legacy.error().find("NetPerf"), std::string::npos) << legacy.error();

    auto empty = test::open_bytes({});
    ASSERT_FALSE(empty.ok());
    EXPECT_NE(empty.error().find("empty"), std::string::npos) << empty.error();
}

TEST(Damage, UnknownObjectTypeEndsTheStreamThere) {
    NetTraceBuilder b(sample_trace_spec(4, true));
    b.metadata({{1, "Demo", 1, "E", 0, 0, 4, 0, {}, {}}});
    EventSpec e;
    e.metadata_id = 1;
    e.thread = 7;
    e.timestamp = 2000;
    b.events({e});
    Bytes stream = b.bytes();
    static constexpr char kBogus[] = "\x05\x05\x01\x02\0\0\0\x02\0\0\0\x07\0\0\0Mystery\x06";
    const std::string bogus(kBogus, sizeof kBogus - 1);
    stream.insert(stream.end(), bogus.begin(), bogus.end());
    auto opened = test::open_bytes(stream);
    ASSERT_TRUE(opened.ok()) << opened.error();
    EXPECT_EQ(test::read_all(*opened.value()).size(), 1u);
    ASSERT_EQ(opened.value()->stats().problem_count, 1u);
    EXPECT_NE(opened.value()->stats().problems[0].message.find("\"Mystery\""), std::string::npos);
}

TEST(Damage, PendingBudgetDeliversWithoutASequencePoint) {
    NetTraceOptions small;
    small.max_pending_bytes = 1; // every block is a region of its own
    auto opened = test::open_bytes(sample_stream(4, true), small);
    ASSERT_TRUE(opened.ok()) << opened.error();
    EXPECT_EQ(test::read_all(*opened.value()).size(), kSampleEvents);
    EXPECT_GT(opened.value()->stats().out_of_order_events, 0u); // thread B's block came after A's
}

TEST(Damage, GapsInAThreadsSequenceNumbersAreEventsTheRuntimeLost) {
    // Uncompressed rows carry each event's sequence number: thread 7 logs
    // 1, 2, 5 (two lost), thread 8 logs 1 then 1 again (a new thread, no loss).
    NetTraceBuilder b(sample_trace_spec(4, false));
    b.metadata({{1, "Demo", 1, "E", 0, 0, 4, 0, {}, {}}});
    std::vector<EventSpec> rows;
    for (auto [thread, sequence] : std::vector<std::pair<uint64_t, uint32_t>>{{7, 1}, {7, 2}, {8, 1}, {7, 5}, {8, 1}}) {
        EventSpec e;
        e.metadata_id = 1;
        e.thread = thread;
        e.sequence = sequence;
        e.timestamp = 2000 + static_cast<int64_t>(rows.size());
        rows.push_back(e);
    }
    b.events(rows);
    auto opened = test::open_bytes(b.finish());
    ASSERT_TRUE(opened.ok()) << opened.error();
    EXPECT_EQ(test::read_all(*opened.value()).size(), 5u);
    EXPECT_EQ(opened.value()->logfile().events_lost, 2u);
    EXPECT_EQ(opened.value()->stats().problem_count, 0u);
}

} // namespace
} // namespace dtrace::etw::nettrace
