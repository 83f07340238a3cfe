// replayed_engine.h: an engine replaying a trace, with a "replay" provider
// whose probes tick (a trace timer's) and event fire as a replaying plugin
// fires them.
#pragma once

#include "compiler/compile.h"
#include "compiler/parser.h"
#include "engine/engine.h"
#include "engine_test_util.h"

#include <gtest/gtest.h>

#include <span>

namespace dtrace::test {

class ReplayedEngine : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(options.set("replay", "trace.etl"), std::nullopt);
        dtrace_provider_id core = add_provider(engine.probes(), "dtrace");
        for (const char *name : {"BEGIN", "END", "ERROR"})
            engine.probes().add_probe(core, probe_info(name));
        engine.set_core_probes(1, 2, 3);
        dtrace_provider_id provider = add_provider(engine.probes(), "replay");
        tick = engine.probes().add_probe(provider, probe_info("tick"));
        event = engine.probes().add_probe(provider, probe_info("event"));
    }

    void enable(const char *source) {
        compiler::ParseOptions parse_options;
        parse_options.macro_args = {"test"};
        auto parsed = compiler::parse_program(source, parse_options);
        ASSERT_TRUE(parsed.program) << parsed.error->message;
        auto compiled = compiler::compile(*parsed.program, {});
        ASSERT_TRUE(compiled.program) << compiled.error->message;
        program = std::move(*compiled.program);
        auto enabled = engine.enable(program, false);
        ASSERT_TRUE(enabled) << enabled.error().reason;
        ASSERT_GT(*enabled, 0);
        engine.go();
    }

    void fire_event(uint64_t timestamp, uint32_t cpu = 0, uint32_t flags = 0, std::span<const uint64_t> args = {}) {
        dtrace_event_ctx ctx{};
        ctx.struct_size = sizeof ctx;
        ctx.timestamp = ctx.walltimestamp = timestamp;
        ctx.cpu = cpu;
        ctx.flags = DTRACE_EVENT_REPLAYED | flags;
        ctx.args = args.data();
        ctx.nargs = static_cast<uint32_t>(args.size());
        engine.fire(event, ctx);
    }

    int64_t count_of(const char *aggregation) { return test::count_of(engine, aggregation); }

    engine::Options options;
    engine::Engine engine{options};
    compiler::Program program;
    dtrace_probe_id tick = 0, event = 0;
};

} // namespace dtrace::test
