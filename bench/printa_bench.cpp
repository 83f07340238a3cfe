// printa_bench.cpp: printa() of an aggregation with 1,000,000 keys, sorted.
//
// The aggregation is filled through the engine (one firing per key), then
// each iteration is what the consumer does for printa(@): snapshot the
// table, decode the keys, sort the entries by value and format every row.
#include "bench_fixture.h"
#include "session/aggregation_view.h"

#include <benchmark/benchmark.h>

namespace {

using namespace dtrace;
using bench::Fixture;

constexpr uint64_t kKeys = 1'000'000;

void BM_Printa1MKeysSorted(benchmark::State &state) {
    Fixture f("synthetic:::fire { @[arg0] = sum(arg1); } END { printa(@); }",
              [](engine::Options &o) { o.set("aggsize", "1g"); });
    uint64_t args[2] = {0, 0};
    const dtrace_event_ctx ctx = Fixture::context(args, 2);
    for (uint64_t i = 0; i < kKeys; i++) {
        args[0] = i * 7919 % kKeys; // keys in no particular order
        args[1] = i % 1000;         // many equal values: ties sort by key
        f.engine.fire(f.probe, ctx);
    }
    const compiler::Action &printa = f.program.clauses.back().actions.front();
    session::AggregationView view(f.engine, f.options);
    size_t bytes = 0;
    for (auto _ : state) {
        std::string text = view.printa(f.program, printa, nullptr);
        bytes = text.size();
        benchmark::DoNotOptimize(text.data());
    }
    if (bytes < kKeys)
        Fixture::die("printa", "printed " + std::to_string(bytes) + " bytes for " + std::to_string(kKeys) + " keys");
    state.counters["rows"] = static_cast<double>(kKeys);
}
BENCHMARK(BM_Printa1MKeysSorted)->Unit(benchmark::kMillisecond)->Iterations(3);

} // namespace

BENCHMARK_MAIN();
