// agg_data.h: the data each aggregating function keeps, in one place.
//
// The engine updates aggregation data at each firing and merges per-CPU
// copies; the consumer prints and sorts it. Both must agree on the layout,
// so the layout lives here, below both (the engine does not link the
// consumer), with the arithmetic DTrace uses:
//
//   count      [n]
//   sum        [sum]
//   avg        [n, sum]
//   min        [min]                 (starts at INT64_MAX)
//   max        [max]                 (starts at INT64_MIN)
//   stddev     [n, sum, sumsq_high, sumsq_low]   (128-bit sum of squares)
//   quantize   127 buckets: ..., -4, -2, -1, 0, 1, 2, 4, ... (bucket 63 is 0)
//   lquantize  [below lo, lo, lo+step, ..., hi-step, at or above hi]
//              params (lo, hi, step): (hi - lo) / step + 2 buckets
//   llquantize [below factor^lo, then per order of magnitude m in lo..hi the
//              steps of width factor^(m+1) / steps (at least 1) from factor^m,
//              then at or above factor^(hi+1)]
//              params (factor, lo, hi, steps)
#pragma once

#include "compiler/program.h"

#include <cstdint>
#include <span>
#include <vector>

namespace dtrace::aggdata {

using compiler::AggFunc;

inline constexpr int kQuantizeBuckets = 127;
inline constexpr int kQuantizeZeroBucket = 63;

// Parameters as AggregationDecl::params holds them.
struct LquantizeParams {
    int32_t base = 0; // lo
    uint16_t step = 1;
    uint16_t levels = 0; // (hi - lo) / step
};
struct LlquantizeParams {
    uint16_t factor = 0;
    uint16_t low = 0;
    uint16_t high = 0;
    uint16_t steps = 0;
};

LquantizeParams lquantize_params(std::span<const int64_t> params);
LlquantizeParams llquantize_params(std::span<const int64_t> params);

// The value a quantize() bucket starts at: bucket 63 is 0, 64 is 1, 65 is 2,
// 62 is -1, 61 is -2 ...
int64_t quantize_bucket_value(int bucket);
int quantize_bucket(int64_t value);
int lquantize_bucket(const LquantizeParams &p, int64_t value);
int llquantize_bucket(const LlquantizeParams &p, int64_t value);
// v * factor, saturating at INT64_MAX instead of overflowing (DTrace's
// compiler keeps llquantize() parameters small enough never to get there).
int64_t times_factor(int64_t v, int64_t factor);
// Number of llquantize() buckets (including the two open-ended ones).
int llquantize_buckets(const LlquantizeParams &p);
// The value each llquantize() bucket starts at, as DTrace labels them:
// bucket 0 holds the values below starts[1], the last one those at or above
// its start (starts[0] is 0 and means nothing).
std::vector<int64_t> llquantize_bucket_starts(const LlquantizeParams &p);

// The data of a tuple that has not aggregated anything yet.
std::vector<int64_t> aggregate_init(AggFunc func, std::span<const int64_t> params);

// Applies one firing: `value` is the aggregated expression (ignored by
// count()), `increment` the optional weight of the quantizations (1 unless
// given). Data of the wrong size is re-initialised first.
void aggregate_update(AggFunc func, std::span<const int64_t> params, std::vector<int64_t> &data, int64_t value,
                      int64_t increment = 1);
// The same on data known to have the function's size (made by aggregate_init()).
void aggregate_add_any(AggFunc func, std::span<const int64_t> params, std::span<int64_t> data, int64_t value,
                       int64_t increment);
// aggregate_add_any() with count(), the commonest update of all, inline.
inline void aggregate_add(AggFunc func, std::span<const int64_t> params, std::span<int64_t> data, int64_t value,
                          int64_t increment) {
    if (func == AggFunc::Count)
        data[0] = static_cast<int64_t>(static_cast<uint64_t>(data[0]) + 1); // wraps, as DTrace's counters do
    else
        aggregate_add_any(func, params, data, value, increment);
}

// Folds another CPU's data for the same tuple into `into`.
void aggregate_merge(AggFunc func, std::vector<int64_t> &into, std::span<const int64_t> from);

// stddev(): DTrace's integer standard deviation, sqrt(E[x^2] - E[x]^2)
// computed in 128 bits and divided by `normal`.
uint64_t stddev_value(std::span<const int64_t> data, uint64_t normal = 1);

} // namespace dtrace::aggdata
