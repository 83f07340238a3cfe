// A replay's per-interval reports: a clause whose record the consumer acts on
// for aggregations (printa, clear ...) makes the replay wait until the
// consumer has carried it out, so each report sees the aggregations as they
// were when the clause fired, whenever the consumer gets to it; and BEGIN
// and END run on trace time.
#include "replayed_engine.h"

#include <atomic>
#include <thread>

using namespace dtrace;
using dtrace::test::ReplayedEngine;

namespace {

constexpr uint64_t kTickInterval = 1000;
constexpr uint64_t kTicks = 50;
constexpr uint64_t kEventsPerTick = 37;
constexpr uint64_t kFirstEvent = 5000;

} // namespace

// The consumer here reads @n (as printa would) and clears it (as clear()
// would) each time it takes the buffers, and only when the replay asks or at
// the end: without the wait, the replay would run far ahead of it.
TEST_F(ReplayedEngine, EachTickReportSeesTheAggregationAsItWasAtTheTick) {
    enable("replay:::event { @n = count(); } replay:::tick { printa(@n); clear(@n); }");
    ASSERT_EQ(engine.add_trace_timer(tick, kTickInterval, 0), 0);
    std::atomic<bool> finished{false};
    std::thread replay([&] {
        const uint64_t spacing = kTickInterval / kEventsPerTick;
        for (uint64_t i = 0; i < kTicks * kEventsPerTick; i++)
            fire_event(kFirstEvent + 1 + i * spacing);
        finished.store(true);
    });
    std::vector<int64_t> reports;
    auto consume = [&] {
        bool printa_read = false;
        for (const engine::Engine::CpuData &d : engine.take_buffers())
            printa_read = printa_read || !d.records.empty(); // only the tick records anything
        if (printa_read) {
            reports.push_back(count_of("n"));
            engine.clear_aggregation(program, program.aggregations.front().id);
        }
        engine.buffers_consumed();
    };
    while (!finished.load()) {
        if (engine.drain_wanted())
            consume();
        std::this_thread::yield();
    }
    replay.join();
    consume();
    ASSERT_EQ(reports.size(), kTicks - 1) << "one report per tick before the last event";
    int64_t total = 0;
    for (size_t i = 0; i < reports.size(); i++) {
        EXPECT_GE(reports[i], static_cast<int64_t>(kEventsPerTick) - 1) << "tick " << i;
        EXPECT_LE(reports[i], static_cast<int64_t>(kEventsPerTick) + 1) << "tick " << i;
        total += reports[i];
    }
    EXPECT_EQ(total + count_of("n"), static_cast<int64_t>(kTicks * kEventsPerTick)) << "the intervals sum to the total";
}

TEST_F(ReplayedEngine, AConsumerThatStopsReadingReleasesAWaitingReplay) {
    enable("replay:::event { @n = count(); printa(@n); }");
    std::thread replay([&] {
        fire_event(1000); // waits for a consumer that never reads
        fire_event(2000);
    });
    engine.consumer_stopping();
    replay.join(); // would hang if the wait were not released
    EXPECT_EQ(count_of("n"), 2);
}

TEST_F(ReplayedEngine, BeginRunsAtTheFirstReplayedEventAndEndAtTheLast) {
    enable("BEGIN { @begin = max(timestamp); } END { @end = max(timestamp); } replay:::event { @n = count(); }");
    EXPECT_EQ(count_of("begin"), 0) << "BEGIN waits for the trace's first time";
    fire_event(7000, 0, DTRACE_EVENT_BEFORE_DATA);
    fire_event(9000);
    fire_event(12000);
    engine.stop();
    EXPECT_EQ(count_of("begin"), 7000);
    EXPECT_EQ(count_of("end"), 12000);
    EXPECT_EQ(count_of("n"), 3);
}

TEST_F(ReplayedEngine, BeginStillRunsWhenTheReplayFiresNothing) {
    enable("BEGIN { @begin = count(); } END { @end = count(); }");
    engine.input_finished();
    engine.stop();
    EXPECT_EQ(count_of("begin"), 1);
    EXPECT_EQ(count_of("end"), 1);
}
