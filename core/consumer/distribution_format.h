// distribution_format.h: the ASCII art of quantize(), lquantize() and llquantize().
//
// A header ("value  ---- Distribution ---- count"), then one row per bucket
// from the first non-zero bucket to the last, with one zero row of margin on
// each side: the bucket's value, a bar of '@' 40 characters wide at most
// (scaled to the sum of the rows shown, or with -x aggzoom to the largest
// row), and the count. Negative counts (negative increments) draw bars to the
// left of the axis; mixed signs split the bar in two halves.
#pragma once

#include "consumer/agg_data.h"

#include <cstdint>
#include <span>
#include <string>

namespace dtrace::consumer {

std::string format_quantize(std::span<const int64_t> data, uint64_t normal, bool zoom);
std::string format_lquantize(std::span<const int64_t> data, const LquantizeParams &params, uint64_t normal, bool zoom);
std::string format_llquantize(std::span<const int64_t> data, const LlquantizeParams &params, uint64_t normal,
                              bool zoom);

// Dispatches on the aggregating function (quantize family only; "" otherwise).
std::string format_distribution(AggFunc func, std::span<const int64_t> params, std::span<const int64_t> data,
                                uint64_t normal, bool zoom);

} // namespace dtrace::consumer
