// merged_stream_test.cpp: several files replayed as one session
// (reader/merged_stream.h): one timestamp order, each event's file, one
// clock for files of one counter, summed counts.
#include <gtest/gtest.h>

#include <vector>

#include "etl_file_builder.h"
#include "reader/merged_stream.h"
#include "test_support.h"

namespace dtrace::etw {
namespace {

using namespace fixture;

// A file of one CPU whose events (after the header) are at the raw times
// given, each with its time as payload.
Bytes file_with_events(const LogfileSpec &logfile, const std::vector<int64_t> &times) {
    BufferSpec cpu0{.cpu = 0};
    for (int64_t t : times) {
        EventHeaderSpec e;
        e.provider = *Guid::parse("4f50731a-89cf-4782-b3e0-dce8c90476ba");
        e.timestamp = t;
        put(e.payload, static_cast<uint64_t>(t));
        cpu0.records.push_back(encode(e));
    }
    EtlFileBuilder builder(logfile);
    builder.add_buffer(cpu0);
    return builder.build();
}

EtlReader open_or_fail(Bytes bytes) {
    Result<EtlReader> reader = test::open_bytes(std::move(bytes));
    EXPECT_TRUE(reader) << (reader ? "" : reader.error());
    return std::move(reader.value());
}

TEST(MergedStream, FilesOfOneCounterMergeByTheirRawTimes) {
    LogfileSpec first;
    first.events_lost = 2;
    LogfileSpec second = first;
    second.header_timestamp = 500; // starts 40 us later on the same counter
    second.start_time = first.start_time + 400;
    second.events_lost = 3;
    std::vector<EtlReader> readers;
    readers.push_back(open_or_fail(file_with_events(first, {1000, 1003, 1004})));
    readers.push_back(open_or_fail(file_with_events(second, {999, 1001, 1003})));
    const TraceClock clock = readers[0].clock();
    MergedStream merged(std::move(readers));
    EXPECT_EQ(merged.file_count(), 2u);
    EXPECT_EQ(merged.logfile().events_lost, 5u);

    std::vector<std::pair<int64_t, uint8_t>> order;
    Event e;
    while (merged.next(e)) {
        if (e.payload.size() == sizeof(uint64_t)) {
            EXPECT_EQ(e.time_ns, clock.to_unix_ns(e.timestamp)) << "one clock for both files";
            order.emplace_back(e.timestamp, e.source);
        } else {
            // The second file's header fires as a session start of the merged clock.
            EXPECT_EQ(e.timestamp, clock.raw_base());
        }
    }
    const std::vector<std::pair<int64_t, uint8_t>> expected = {{999, 1},  {1000, 0}, {1001, 1},
                                                               {1003, 0}, {1003, 1}, {1004, 0}};
    EXPECT_EQ(order, expected);
    EXPECT_EQ(merged.stats().events, 8u); // two headers and six events
}

TEST(MergedStream, AFileOfAnotherCounterKeepsItsOwnTimes) {
    LogfileSpec first;
    LogfileSpec other;
    other.perf_freq = 3000000;                            // another machine's QPC
    other.start_time = first.start_time + 10'000'000'000; // 1000 s later
    std::vector<EtlReader> readers;
    readers.push_back(open_or_fail(file_with_events(first, {1000})));
    readers.push_back(open_or_fail(file_with_events(other, {1000})));
    const int64_t other_ns = readers[1].clock().to_unix_ns(1000);
    MergedStream merged(std::move(readers));
    Event e;
    std::vector<int64_t> times;
    while (merged.next(e)) {
        if (e.payload.size() == sizeof(uint64_t)) {
            times.push_back(e.time_ns);
        }
    }
    ASSERT_EQ(times.size(), 2u);
    EXPECT_EQ(times[1], other_ns);
    EXPECT_LT(times[0], times[1]);
}

} // namespace
} // namespace dtrace::etw
