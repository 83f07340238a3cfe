// packed_format.h: -x aggpack, a quantization on one line.
//
// With aggpack DTrace prints each quantize() or lquantize() entry as one row
// of cells, one cell a bucket, under a header that spans the same buckets:
// " min .------. max | count". A cell shows the bucket's share of the row's
// total as one of eight heights: UTF-8 block elements, or "__xxxxXX" in
// ASCII; negative counts use "vvvvVV". The quantize() columns are common to
// the whole aggregation: from the lowest to the highest bucket any entry
// uses, widened by one on each side.
#pragma once

#include "aggdata/agg_data.h"

#include <cstdint>
#include <span>
#include <string>

namespace dtrace::consumer {

// The buckets a quantize() entry uses (the zero bucket for an empty one).
struct BinRange {
    int min;
    int max;
};
BinRange quantize_used_bins(std::span<const int64_t> data);
BinRange merge_bins(BinRange a, BinRange b);

// The header: `key_width` (0 without keys) holds "key", then the columns.
std::string quantize_packed_header(int key_width, BinRange bins);
std::string lquantize_packed_header(int key_width, const aggdata::LquantizeParams &params);

// One entry's row, ending with " | total count\n".
std::string format_quantize_packed(std::span<const int64_t> data, BinRange bins, bool zoom, bool utf8);
std::string format_lquantize_packed(std::span<const int64_t> data, const aggdata::LquantizeParams &params, bool zoom,
                                    bool utf8);

} // namespace dtrace::consumer
