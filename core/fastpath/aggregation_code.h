// aggregation_code.h: aggregations in the kernel: each a per-CPU hash map
// from the key tuple (8 bytes per integer, 16 per string) to the
// aggregating function's words (a keyless count, avg, min, max or stddev: a
// per-CPU array of one entry), and the BPF code that updates one entry.
//
// Kernel layouts (words of 8 bytes; docs/fastpath.md):
//   count [n]   sum [sum]   avg [n, sum]   min, max [n, value]
//   stddev [n, sum, squares high, squares low] (aggdata's)
//   quantize  the 127 buckets of aggdata   lquantize  its levels + 2 buckets
//   llquantize  aggdata's buckets
// min and max keep their count so that the CPUs that never saw a key (whose
// words the kernel zeroes) are told apart when the CPUs are merged.
#pragma once

#include "fastpath/bpf_emitter.h"
#include "fastpath/kernel_frame.h"

namespace dtrace::fastpath {

// Whether the first kernel word of `func` counts the firings (0: never fired).
bool counts_firings(compiler::AggFunc func);

// The kernel's words per entry of `func`; throws Refusal for the functions
// the kernel path does not compute.
uint32_t kernel_value_words(compiler::AggFunc func, const std::vector<int64_t> &params);

// The aggregation `id` of `program` in the plan (its map added at first use).
KernelAggregation &plan_aggregation(MapPlan &plan, const compiler::Program &program, uint32_t id);

// Updates `agg`'s entry for the key at frame::kKey with the value at
// frame::kAggValue and the increment at frame::kAggIncrement. A new key that
// finds the map full is an aggregation drop.
void emit_aggregate_update(BpfEmitter &out, const KernelAggregation &agg);

} // namespace dtrace::fastpath
