// Trace-time timers: while replaying, ticks follow the events' timestamps.
#include "compiler/compile.h"
#include "compiler/parser.h"
#include "engine/engine.h"

#include <gtest/gtest.h>

using namespace dtrace;

namespace {

class ReplayedEngine : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(options.set("replay", "trace.etl"), std::nullopt);
        dtrace_provider_info info{};
        info.struct_size = sizeof info;
        std::string error;
        info.name = "dtrace";
        dtrace_provider_id core = engine.probes().add_provider(nullptr, info, error);
        for (const char *name : {"BEGIN", "END", "ERROR"})
            engine.probes().add_probe(core, probe_info(name));
        engine.set_core_probes(1, 2, 3);
        info.name = "replay";
        dtrace_provider_id provider = engine.probes().add_provider(nullptr, info, error);
        tick = engine.probes().add_probe(provider, probe_info("tick"));
        event = engine.probes().add_probe(provider, probe_info("event"));
    }

    static host::ProbeInfo probe_info(const char *name) {
        host::ProbeInfo p;
        p.name = name;
        return p;
    }

    void enable(const char *source) {
        compiler::ParseOptions parse_options;
        parse_options.macro_args = {"test"};
        auto parsed = compiler::parse_program(source, parse_options);
        ASSERT_TRUE(parsed.program) << parsed.error->message;
        auto compiled = compiler::compile(*parsed.program, {});
        ASSERT_TRUE(compiled.program) << compiled.error->message;
        program = std::move(*compiled.program);
        std::string error;
        ASSERT_GT(engine.enable(program, false, error), 0) << error;
        engine.go();
    }

    void fire_event(uint64_t timestamp, uint32_t cpu = 0, uint32_t flags = 0) {
        dtrace_event_ctx ctx{};
        ctx.struct_size = sizeof ctx;
        ctx.timestamp = ctx.walltimestamp = timestamp;
        ctx.cpu = cpu;
        ctx.flags = DTRACE_EVENT_REPLAYED | flags;
        engine.fire(event, ctx);
    }

    int64_t count_of(const char *aggregation) {
        for (const auto &s : engine.snapshot_aggregations()) {
            if (s.decl->name == aggregation)
                return s.entries.empty() ? 0 : s.entries.front().second.front();
        }
        return -1;
    }

    engine::Options options;
    engine::Engine engine{options};
    compiler::Program program;
    dtrace_probe_id tick = 0, event = 0;
};

} // namespace

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
    int64_t total = 0;
    for (const auto &s : engine.snapshot_aggregations()) {
        if (s.decl->name == "ticks") {
            EXPECT_EQ(s.entries.size(), 2u);
            for (const auto &[key, data] : s.entries)
                total += data.front();
        }
    }
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
    dtrace_provider_info info{};
    info.struct_size = sizeof info;
    info.name = "dtrace";
    std::string error;
    dtrace_provider_id core = engine.probes().add_provider(nullptr, info, error);
    host::ProbeInfo begin;
    begin.name = "BEGIN";
    engine.probes().add_probe(core, begin);
    compiler::Program program;
    compiler::Clause &clause = program.clauses.emplace_back();
    clause.probes = {"dtrace:::BEGIN"};
    dif::Difo bad;
    bad.code = {dif::encode({dif::Op::Ba, 0, 0, 0, 0})}; // a branch to itself: never terminates
    clause.predicate = bad;
    EXPECT_EQ(engine.enable(program, false, error), -1);
    EXPECT_NE(error.find("DIF validation failed"), std::string::npos) << error;
}
