// engine_fire_bench.cpp: the cost of one probe firing through the engine.
//
// A synthetic provider's probe is enabled with a real compiled D clause and
// fired in a loop from one thread, as a plugin would fire it: the figure is
// the whole firing path (lock, predicate, aggregation key and update).
#include "compiler/compile.h"
#include "compiler/parser.h"
#include "engine/engine.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

namespace {

using namespace dtrace;

struct Fixture {
    engine::Options options;
    engine::Engine engine{options};
    compiler::Program program;
    dtrace_probe_id probe = 0;

    explicit Fixture(const char *clause) {
        dtrace_provider_info info{};
        info.struct_size = sizeof info;
        std::string error;
        info.name = "dtrace";
        dtrace_provider_id core = engine.probes().add_provider(nullptr, info, error);
        for (const char *name : {"BEGIN", "END", "ERROR"}) {
            host::ProbeInfo p;
            p.name = name;
            engine.probes().add_probe(core, p);
        }
        engine.set_core_probes(1, 2, 3);
        info.name = "synthetic";
        dtrace_provider_id provider = engine.probes().add_provider(nullptr, info, error);
        host::ProbeInfo p;
        p.module = "bench";
        p.function = "hot_function";
        p.name = "fire";
        probe = engine.probes().add_probe(provider, p);

        compiler::ParseOptions parse_options;
        parse_options.macro_args = {"bench"};
        auto parsed = compiler::parse_program(clause, parse_options);
        if (!parsed.program)
            die("parse", parsed.error->message);
        auto compiled = compiler::compile(*parsed.program, {});
        if (!compiled.program)
            die("compile", compiled.error->message);
        program = std::move(*compiled.program);
        if (engine.enable(program, false, error) != 1)
            die("enable", error);
        engine.go();
    }

    [[noreturn]] static void die(const char *what, const std::string &why) {
        std::fprintf(stderr, "engine_bench: %s failed: %s\n", what, why.c_str());
        std::exit(1);
    }
};

void fire_loop(benchmark::State &state, const char *clause) {
    Fixture f(clause);
    uint64_t args[2] = {0, 0};
    dtrace_event_ctx ctx{};
    ctx.struct_size = sizeof ctx;
    ctx.cpu = 0;
    ctx.pid = 1;
    ctx.tid = 1;
    ctx.execname = "bench";
    ctx.args = args;
    ctx.nargs = 2;
    ctx.timestamp = 1;
    ctx.walltimestamp = 1;
    uint64_t i = 0;
    for (auto _ : state) {
        args[0] = i++ & 31; // two thirds pass the predicate
        f.engine.fire(f.probe, ctx);
    }
    state.SetItemsProcessed(state.iterations());
}

void BM_FirePredicatedCount(benchmark::State &state) {
    fire_loop(state, "synthetic:::fire /arg0 > 10/ { @[probefunc] = count(); }");
}
BENCHMARK(BM_FirePredicatedCount);

void BM_FireEmptyPredicateFalse(benchmark::State &state) {
    fire_loop(state, "synthetic:::fire /arg0 > 1000/ { @[probefunc] = count(); }");
}
BENCHMARK(BM_FireEmptyPredicateFalse);

void BM_FireQuantize(benchmark::State &state) {
    fire_loop(state, "synthetic:::fire { @[probefunc] = quantize(arg0); }");
}
BENCHMARK(BM_FireQuantize);

} // namespace

BENCHMARK_MAIN();
