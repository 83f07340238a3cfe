// aggregation_code.h: aggregations in the kernel: each a per-CPU hash map
// from the key tuple (8 bytes per integer, the string width per string,
// a stack()'s kernel frames: kernel_stacks.h) to the aggregating
// function's words (a keyless count, avg, min, max or stddev: a per-CPU
// array of one entry), and the BPF code that updates one entry.
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
#include "fastpath/kernel_stacks.h"

namespace dtrace::fastpath {

// Whether the first kernel word of `func` counts the firings (0: never fired).
bool counts_firings(compiler::AggFunc func);

// The kernel's words per entry of `func`; throws Refusal for the functions
// the kernel path does not compute.
uint32_t kernel_value_words(compiler::AggFunc func, const std::vector<int64_t> &params);

// The bytes of one key part in the kernel: 8 for an integer, `string_bytes`
// for a string, 8 per kernel frame for a stack() (kernel_stacks.h), the
// engine's for a ustack() (the pid and the frames: user_stacks.h).
uint32_t key_part_bytes(const dif::TypeDesc &type, uint32_t string_bytes);

// The aggregation `id` of `program` in the plan (its map added at first use).
KernelAggregation &plan_aggregation(MapPlan &plan, const compiler::Program &program, uint32_t id);

// Writes the firing's kernel stack (emit_kernel_stack()) at `offset` of `agg`'s key.
void emit_stack_key_part(BpfEmitter &out, const KernelAggregation &agg, const dif::TypeDesc &stack, int16_t offset);

// Updates `agg`'s entry for the key at frame::kKey with the value at
// frame::kAggValue and the increment at frame::kAggIncrement. A new key that
// finds the map full is an aggregation drop.
void emit_aggregate_update(BpfEmitter &out, const KernelAggregation &agg);

} // namespace dtrace::fastpath
