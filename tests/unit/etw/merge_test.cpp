// merge_test.cpp: the k-way merge of per-CPU buffers into timestamp order,
// with bounded memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <tuple>

#include "etl_file_builder.h"
#include "reader/lane_merge.h"
#include "sample_traces.h"
#include "test_support.h"

namespace dtrace::etw {
namespace {

using namespace fixture;
using test::OwnedEvent;

TEST(Merge, CpuBuffersOutOfFileOrderComeOutInTimestampOrder) {
    constexpr uint16_t kCpus = 4;
    constexpr uint32_t kPerCpu = 500;
    Result<EtlReader> reader = test::open_bytes(sample_multi_cpu(kCpus, kPerCpu, 0x400));
    ASSERT_TRUE(reader);
    std::vector<OwnedEvent> events = test::read_all(reader.value());
    ASSERT_EQ(events.size(), 1u + kCpus * kPerCpu);
    // After the header record: timestamps 1000, 1001, ... each from CPU ts % kCpus.
    for (size_t i = 1; i < events.size(); ++i) {
        const Event &e = events[i].event;
        ASSERT_EQ(e.timestamp, 1000 + int64_t(i - 1)) << "event " << i;
        EXPECT_EQ(e.cpu, (e.timestamp - 1000) % kCpus);
        EXPECT_EQ(test::payload_u64(events[i]), static_cast<uint64_t>(e.timestamp));
    }
    // The file order of the buffers the events came from is not time order,
    // so the order above is the merge's doing.
    bool file_order_regresses = false;
    for (size_t i = 2; i < events.size(); ++i) {
        file_order_regresses |= events[i].event.buffer_offset < events[i - 1].event.buffer_offset;
    }
    EXPECT_TRUE(file_order_regresses);
    EXPECT_EQ(reader.value().stats().out_of_order_events, 0u);
    EXPECT_EQ(reader.value().cpus(), (std::vector<uint16_t>{0, 1, 2, 3}));
}

TEST(Merge, EqualTimestampsAreOrderedByCpu) {
    EtlFileBuilder builder;
    for (uint16_t cpu : {5, 2, 7}) {
        BufferSpec b;
        b.cpu = cpu;
        b.records = {sample_event(cpu, 3000000, cpu), sample_event(cpu, 3000001, cpu)};
        builder.add_buffer(b);
    }
    std::vector<OwnedEvent> events = test::read_bytes(builder.build());
    ASSERT_EQ(events.size(), 7u);
    std::vector<uint16_t> cpus;
    for (size_t i = 1; i < events.size(); ++i) {
        cpus.push_back(events[i].event.cpu);
    }
    EXPECT_EQ(cpus, (std::vector<uint16_t>{2, 5, 7, 2, 5, 7}));
}

TEST(Merge, AWrappedCircularLogStartsAtEachCpusOldestBuffer) {
    Result<EtlReader> reader = test::open_bytes(sample_circular());
    ASSERT_TRUE(reader);
    std::vector<OwnedEvent> events = test::read_all(reader.value());
    ASSERT_EQ(events.size(), 1u + 60u);
    for (size_t i = 2; i < events.size(); ++i) {
        EXPECT_GT(events[i].event.timestamp, events[i - 1].event.timestamp) << "event " << i;
    }
    EXPECT_EQ(events[1].event.timestamp, 2000);
    EXPECT_EQ(events.back().event.timestamp, 4019);
    EXPECT_EQ(reader.value().stats().out_of_order_events, 0u);
}

TEST(Merge, AnUnsortedLaneIsCountedNotHidden) {
    // Two buffers of one CPU whose sequence numbers contradict their times:
    // the reader follows the sequence numbers and reports the regression.
    EtlFileBuilder builder;
    BufferSpec late;
    late.cpu = 1;
    late.sequence = 1;
    late.records = {sample_event(1, 9000, 0)};
    BufferSpec early;
    early.cpu = 1;
    early.sequence = 2;
    early.records = {sample_event(2, 5000, 0)};
    builder.add_buffer(late);
    builder.add_buffer(early);
    Result<EtlReader> reader = test::open_bytes(builder.build());
    ASSERT_TRUE(reader);
    std::vector<OwnedEvent> events = test::read_all(reader.value());
    ASSERT_EQ(events.size(), 3u);
    EXPECT_EQ(events[1].event.id, 1);
    EXPECT_EQ(events[2].event.id, 2);
    EXPECT_EQ(reader.value().stats().out_of_order_events, 1u);
}

TEST(Merge, MemoryDependsOnCpusAndBufferSizeNotOnFileSize) {
    // 2 CPUs x about 1000 buffers of 4 KiB (8 MiB of trace) read within a
    // budget of four buffers: one per CPU, the header buffer and a spare.
    constexpr uint32_t kBuffer = 0x1000;
    constexpr uint32_t kPerCpu = 45000;
    Bytes file = sample_multi_cpu(2, kPerCpu, kBuffer);
    ASSERT_GT(file.size(), 2000u * kBuffer);
    ReaderOptions options;
    options.max_buffer_memory = 4 * kBuffer;
    Result<EtlReader> reader = test::open_bytes(std::move(file), options);
    ASSERT_TRUE(reader);
    Event e;
    uint64_t n = 0;
    int64_t previous = 0;
    while (reader.value().next(e)) {
        ASSERT_GE(e.timestamp, previous);
        previous = e.timestamp;
        ++n;
    }
    EXPECT_EQ(n, 1u + 2 * kPerCpu);
    EXPECT_EQ(reader.value().stats().corrupt_buffers, 0u);
}

TEST(Merge, AnEventsSpansStayValidUntilTheNextCall) {
    Result<EtlReader> reader = test::open_bytes(sample_multi_cpu(3, 200, 0x400));
    ASSERT_TRUE(reader);
    Event e;
    ASSERT_TRUE(reader.value().next(e)); // the header record
    std::set<uint64_t> seen;
    while (reader.value().next(e)) {
        ASSERT_EQ(e.payload.size(), 8u);
        uint64_t value = 0;
        std::memcpy(&value, e.payload.data(), 8);
        EXPECT_EQ(value, static_cast<uint64_t>(e.timestamp));
        seen.insert(value);
    }
    EXPECT_EQ(seen.size(), 600u);
}

// The merge alone, against a sort: lanes of different lengths (some empty),
// a lane count that is not a power of two, timestamps shared across lanes,
// extreme timestamps, CPU numbers that are not the lane numbers.
TEST(LaneMerge, DeliversWhatASortByTimestampThenCpuDelivers) {
    constexpr uint32_t kLanes = 37;
    std::mt19937_64 random(5);
    std::vector<uint16_t> cpus(kLanes);
    std::iota(cpus.begin(), cpus.end(), uint16_t{0});
    std::shuffle(cpus.begin(), cpus.end(), random);
    std::vector<std::vector<int64_t>> lanes(kLanes);
    std::vector<std::tuple<int64_t, uint16_t, uint32_t>> expected; // timestamp, cpu, lane
    for (uint32_t lane = 0; lane < kLanes; ++lane) {
        const size_t length = lane % 5 == 0 ? 0 : random() % 200;
        for (size_t i = 0; i < length; ++i) {
            lanes[lane].push_back(static_cast<int64_t>(random() % 1000) - 500);
        }
        if (lane % 7 == 1) {
            lanes[lane].push_back(std::numeric_limits<int64_t>::max());
            lanes[lane].insert(lanes[lane].begin(), std::numeric_limits<int64_t>::min());
        }
        std::sort(lanes[lane].begin(), lanes[lane].end());
        for (int64_t t : lanes[lane]) {
            expected.emplace_back(t, cpus[lane], lane);
        }
    }
    std::sort(expected.begin(), expected.end());

    LaneMerge merge(kLanes);
    std::vector<size_t> next(kLanes, 0);
    for (uint32_t lane = 0; lane < kLanes; ++lane) {
        if (!lanes[lane].empty()) {
            merge.set(lane, lanes[lane][0], cpus[lane]);
        }
    }
    merge.start();
    std::vector<std::tuple<int64_t, uint16_t, uint32_t>> merged;
    while (!merge.empty()) {
        const uint32_t lane = merge.top();
        merged.emplace_back(lanes[lane][next[lane]], cpus[lane], lane);
        if (++next[lane] < lanes[lane].size()) {
            merge.top_changed(lanes[lane][next[lane]]);
        } else {
            merge.pop();
        }
    }
    EXPECT_EQ(merged, expected);
}

TEST(LaneMerge, NoLanesOrOnlyEmptyOnesAreEmpty) {
    LaneMerge none(0);
    none.start();
    EXPECT_TRUE(none.empty());
    LaneMerge idle(3);
    idle.start();
    EXPECT_TRUE(idle.empty());
    LaneMerge one(1);
    one.set(0, 42, 7);
    one.start();
    ASSERT_FALSE(one.empty());
    EXPECT_EQ(one.top(), 0u);
    one.pop();
    EXPECT_TRUE(one.empty());
}

} // namespace
} // namespace dtrace::etw
