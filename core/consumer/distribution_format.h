// distribution_format.h: the ASCII art of quantize(), lquantize() and llquantize().
//
// A header ("value  ---- Distribution ---- count"), then one row per bucket
// from the first non-zero bucket to the last, with one zero row of margin on
// each side: the bucket's value, a bar of '@' 40 characters wide at most
// (scaled to the sum of the rows shown, or with -x aggzoom to the largest
// row), and the count. Negative counts (negative increments) draw bars to the
// left of the axis; mixed signs split the bar in two halves. With
// -x encoding=utf8 a bar of positive counts is drawn in Unicode full blocks
// ending in a partial block (eighths), as DTrace's UTF-8 bars are.
#pragma once

#include "aggdata/agg_data.h"

#include <cstdint>
#include <span>
#include <string>

namespace dtrace::consumer {

// How long bars are: the rows' total, and which signs occur among them.
struct BarScale {
    long double total = 0;
    bool positives = false;
    bool negatives = false;
    bool utf8 = false; // -x encoding=utf8: bars of positive rows in Unicode block elements
};

inline constexpr double kZoomMaxHeight = 0.95; // with aggzoom, the tallest bar fills 95% of the width

// Counts a row into a scale: the sum of magnitudes, or with aggzoom the
// largest magnitude divided by kZoomMaxHeight.
void add_to_scale(BarScale &scale, int64_t value, bool zoom);

// "\n           value  ---- Distribution ---- count    \n"; with a non-zero
// key width (agghist) the first column is "key" in that width.
std::string distribution_header(int key_width = 0);

// One row's bar and count: "|@@@@      " and " %-9lld\n", left of the axis
// for negative rows, split in two halves when both signs occur.
std::string distribution_bar(int64_t value, uint64_t normal, const BarScale &scale);

std::string format_quantize(std::span<const int64_t> data, uint64_t normal, bool zoom, bool utf8 = false);
std::string format_lquantize(std::span<const int64_t> data, const aggdata::LquantizeParams &params, uint64_t normal,
                             bool zoom, bool utf8 = false);
std::string format_llquantize(std::span<const int64_t> data, const aggdata::LlquantizeParams &params, uint64_t normal,
                              bool zoom, bool utf8 = false);

// Dispatches on the aggregating function (quantize family only; "" otherwise).
std::string format_distribution(compiler::AggFunc func, std::span<const int64_t> params, std::span<const int64_t> data,
                                uint64_t normal, bool zoom, bool utf8 = false);

} // namespace dtrace::consumer
