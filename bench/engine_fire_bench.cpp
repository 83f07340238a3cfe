// engine_fire_bench.cpp: the cost of one probe firing through the engine.
//
// A synthetic provider's probe is enabled with a real compiled D clause and
// fired in a loop from one thread, as a plugin would fire it: the figure is
// the whole firing path (lock, predicate, aggregation key and update).
#include "bench_fixture.h"

#include <benchmark/benchmark.h>

namespace {

using namespace dtrace;
using bench::Fixture;

// `drain_every`: take the buffers every that many firings (outside the
// timing), so that recording clauses measure writing records, not drops.
void fire_loop(benchmark::State &state, const char *clause, uint64_t drain_every = 0) {
    Fixture f(clause);
    uint64_t args[2] = {0, 0};
    const dtrace_event_ctx ctx = Fixture::context(args, 2);
    uint64_t i = 0;
    for (auto _ : state) {
        args[0] = i++ & 31; // two thirds pass the predicate
        f.engine.fire(f.probe, ctx);
        if (drain_every && i % drain_every == 0) {
            state.PauseTiming();
            f.engine.take_buffers();
            state.ResumeTiming();
        }
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

void BM_FireTrace(benchmark::State &state) {
    fire_loop(state, "synthetic:::fire { trace(arg0); }", 4096);
}
BENCHMARK(BM_FireTrace);

} // namespace

BENCHMARK_MAIN();
