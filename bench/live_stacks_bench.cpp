// live_stacks_bench.cpp: the live stack helper's cost per frame: unwinding a
// stack captured inside libc's qsort (CFI, no frame pointers), and naming a
// frame (lookup_symbol) once the images are cached.
#include "../tests/unit/live_stacks/captured_stack.h"
#include "stack_symbols.h"

#include <benchmark/benchmark.h>

#include <unistd.h>

namespace {

using namespace dtrace::live::stacks;

captured_stack captured;

UserRegs regs_of(const captured_stack &c) {
    UserRegs regs;
    for (int r : {3, 6, 7, 12, 13, 14, 15, 16}) {
        regs.value[r] = c.regs[r];
        regs.known[r] = true;
    }
    return regs;
}

void BM_UnwindPerFrame(benchmark::State &state) {
    capture_in_qsort(&captured);
    StackSymbols symbols;
    const UserRegs regs = regs_of(captured);
    uint64_t pcs[127];
    size_t frames = 0;
    for (auto _ : state) {
        frames = symbols.unwind_user(getpid(), regs, {captured.regs[kDwarfSp], {captured.bytes, captured.size}}, pcs);
        benchmark::DoNotOptimize(pcs);
    }
    state.counters["frames"] = static_cast<double>(frames);
    state.counters["ns_per_frame"] = benchmark::Counter(static_cast<double>(frames) * state.iterations(),
                                                        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_UnwindPerFrame);

void BM_SymbolizePerFrame(benchmark::State &state) {
    capture_in_qsort(&captured);
    StackSymbols symbols;
    uint64_t pcs[127];
    const size_t frames = symbols.unwind_user(getpid(), regs_of(captured),
                                              {captured.regs[kDwarfSp], {captured.bytes, captured.size}}, pcs);
    dtrace_symbol out{};
    out.struct_size = sizeof out;
    for (auto _ : state)
        for (size_t i = 0; i < frames; i++)
            benchmark::DoNotOptimize(symbols.lookup(DTRACE_SYMBOL_USER, getpid(), pcs[i], &out));
    state.counters["frames"] = static_cast<double>(frames);
    state.counters["ns_per_frame"] = benchmark::Counter(static_cast<double>(frames) * state.iterations(),
                                                        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_SymbolizePerFrame);

} // namespace

BENCHMARK_MAIN();
