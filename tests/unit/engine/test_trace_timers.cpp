// Trace-time timers: while replaying, ticks follow the events' timestamps.
#include "replayed_engine.h"

using namespace dtrace;
using dtrace::test::ReplayedEngine;

TEST_F(ReplayedEngine, TicksFollowTraceTime) {
    enable("replay:::tick { @ticks = count(); } replay:::event { @events = count(); }");
    ASSERT_EQ(engine.add_trace_timer(tick, 100, 0), 0);
    fire_event(1000); // starts the clock: the first tick is due at 1100
    EXPECT_EQ(count_of("ticks"), 0) << "no tick before its time";
    fire_event(1550); // ticks at 1100 .. 1500
    EXPECT_EQ(count_of("ticks"), 5);
    EXPECT_EQ(count_of("events"), 2);
    fire_event(1560); // no tick is due yet
    EXPECT_EQ(count_of("ticks"), 5);
}

TEST_F(ReplayedEngine, RecordsBeforeTheDataDoNotMoveTraceTime) {
    enable("replay:::tick { @ticks = count(); } replay:::event { @events = count(); }");
    ASSERT_EQ(engine.add_trace_timer(tick, 100, 0), 0);
    fire_event(10, 0, DTRACE_EVENT_BEFORE_DATA); // a header stamped long before the data
    fire_event(100000);                          // starts the clock
    EXPECT_EQ(count_of("ticks"), 0) << "no tick between the header and the data";
    EXPECT_EQ(count_of("events"), 2) << "the header's record still fires";
    fire_event(100250);
    EXPECT_EQ(count_of("ticks"), 2);
}

TEST_F(ReplayedEngine, PerCpuTimersFireOnEveryCpuSeen) {
    enable("replay:::tick { @ticks[cpu] = count(); } replay:::event { }");
    ASSERT_EQ(engine.add_trace_timer(tick, 100, DTRACE_TIMER_PER_CPU), 0);
    fire_event(1000, 1); // CPUs 0 and 1 are known from here on
    fire_event(1250, 0);
    auto ticks = test::find_entries(engine, "ticks");
    ASSERT_TRUE(ticks);
    EXPECT_EQ(ticks->size(), 2u);
    int64_t total = 0;
    for (const auto &[key, count] : *ticks)
        total += count;
    EXPECT_EQ(total, 4); // ticks at 1100 and 1200, on each of two CPUs
}

TEST(TraceTimers, RefusedWhenNotReplaying) {
    engine::Options options;
    engine::Engine engine{options};
    EXPECT_EQ(engine.add_trace_timer(1, 100, 0), -1);
}

TEST(EngineEnable, InvalidDifIsRefusedBeforeAnythingRuns) {
    engine::Options options;
    engine::Engine engine{options};
    dtrace_provider_id core = test::add_provider(engine.probes(), "dtrace");
    engine.probes().add_probe(core, test::probe_info("BEGIN"));
    compiler::Program program;
    compiler::Clause &clause = program.clauses.emplace_back();
    clause.probes = {"dtrace:::BEGIN"};
    dif::Difo bad;
    bad.code = {dif::encode({dif::Op::Ba, 0, 0, 0, 0})}; // a branch to itself: never terminates
    clause.predicate = bad;
    auto enabled = engine.enable(program, false);
    ASSERT_FALSE(enabled);
    EXPECT_NE(enabled.error().reason.find("DIF validation failed"), std::string::npos) << enabled.error().reason;
}
