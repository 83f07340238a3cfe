// packed_format.cpp: -x aggpack rows (see packed_format.h).
#include "consumer/packed_format.h"

#include "common/utf8.h"
#include "consumer/cformat.h"
#include "consumer/distribution_format.h"

#include <algorithm>
#include <limits>
#include <string_view>

namespace dtrace::consumer {

using namespace aggdata; // the data layouts the formats read

namespace {

constexpr std::string_view kAsciiLevels = "__xxxxXX";
constexpr std::string_view kNegativeLevels = "vvvvVV";
constexpr uint32_t kUtf8BlockBase = 0x2581; // LOWER ONE EIGHTH BLOCK
constexpr int kUtf8Levels = 8;
constexpr int kMinDigits = 4;
constexpr int kDecimalBase = 10;
constexpr int kLquantizeMinWidth = 7;
constexpr int kLquantizeMaxWidth = 8;
constexpr long double kRound = 0.5L;

// DTrace's column width for a bucket value: its digits (and sign), at least
// four. It stops counting when the value equals a power of ten (100000 gets
// five), which is reproduced.
int ndigits(int64_t v) {
    int n = 1;
    if (v < 0) {
        v = v == std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::max() : -v;
        ++n;
    }
    for (int64_t cmp = kDecimalBase; v > cmp && cmp > 0; cmp *= kDecimalBase)
        ++n;
    return std::max(n, kMinDigits);
}

std::string cell(int64_t datum, long double total, bool utf8) {
    if (datum == 0)
        return " ";
    const auto d = static_cast<long double>(datum);
    if (datum < 0) {
        long double v = d * static_cast<long double>(kNegativeLevels.size() - 1);
        v = (v < 0 ? -v : v) / total;
        return std::string(1, kNegativeLevels[static_cast<size_t>(v + kRound)]);
    }
    if (utf8) {
        std::string block;
        common::append_utf8(block, kUtf8BlockBase + static_cast<uint32_t>((d * (kUtf8Levels - 1)) / total + kRound));
        return block;
    }
    const long double v = (d * static_cast<long double>(kAsciiLevels.size() - 1)) / total;
    return std::string(1, kAsciiLevels[static_cast<size_t>(v + kRound)]);
}

// The bins shown: one more on each side, except below bucket 0 or the zero
// bucket (DTrace never shows the bucket below zero unless it is used).
BinRange widened(BinRange b) {
    if (b.min != 0 && b.min != kQuantizeZeroBucket)
        --b.min;
    if (b.max < kQuantizeBuckets - 1)
        ++b.max;
    return b;
}

std::string header(int key_width, int min_width, std::string_view dashes, int max_width) {
    return c_printf("\n%*s %*s .", key_width, key_width > 0 ? "key" : "", min_width, "min") + std::string(dashes) +
           c_printf(". %*s | count\n", -max_width, "max");
}

std::string cells(std::span<const int64_t> data, int first, int last, bool zoom, bool utf8, long long &count) {
    BarScale scale;
    long double sum = 0;
    for (int i = first; i <= last; ++i) {
        add_to_scale(scale, data[static_cast<size_t>(i)], zoom);
        sum += static_cast<long double>(data[static_cast<size_t>(i)]);
    }
    count = static_cast<long long>(sum);
    std::string out;
    for (int i = first; i <= last; ++i)
        out += cell(data[static_cast<size_t>(i)], scale.total, utf8);
    return out;
}

} // namespace

BinRange quantize_used_bins(std::span<const int64_t> data) {
    int min = -1;
    int max = -1;
    for (size_t i = 0; i < data.size(); ++i) {
        if (data[i] == 0)
            continue;
        if (min == -1)
            min = static_cast<int>(i);
        max = static_cast<int>(i);
    }
    if (min == -1)
        return {kQuantizeZeroBucket, kQuantizeZeroBucket};
    return {min, max};
}

BinRange merge_bins(BinRange a, BinRange b) {
    return {std::min(a.min, b.min), std::max(a.max, b.max)};
}

std::string quantize_packed_header(int key_width, BinRange bins) {
    const BinRange b = widened(bins);
    return header(key_width, ndigits(quantize_bucket_value(b.min)),
                  std::string(static_cast<size_t>(b.max - b.min + 1), '-'), ndigits(quantize_bucket_value(b.max)));
}

std::string lquantize_packed_header(int key_width, const LquantizeParams &params) {
    return header(key_width, kLquantizeMinWidth, std::string(static_cast<size_t>(params.levels) + 2, '-'),
                  kLquantizeMaxWidth);
}

std::string format_quantize_packed(std::span<const int64_t> data, BinRange bins, bool zoom, bool utf8) {
    if (data.size() != static_cast<size_t>(kQuantizeBuckets))
        return {};
    const BinRange b = widened(bins);
    const int64_t minval = quantize_bucket_value(b.min);
    const int64_t maxval = quantize_bucket_value(b.max);
    long long count = 0;
    const std::string body = cells(data, b.min, b.max, zoom, utf8, count);
    return c_printf(" %*lld :", ndigits(minval), static_cast<long long>(minval)) + body +
           c_printf(": %*lld | %lld\n", -ndigits(maxval), static_cast<long long>(maxval), count);
}

std::string format_lquantize_packed(std::span<const int64_t> data, const LquantizeParams &params, bool zoom,
                                    bool utf8) {
    const int last = params.levels + 1;
    if (data.size() != static_cast<size_t>(last) + 1)
        return {};
    long long count = 0;
    const std::string body = cells(data, 0, last, zoom, utf8, count);
    const std::string below = "< " + std::to_string(params.base);
    const std::string above = ">= " + std::to_string(params.base + params.levels * params.step);
    return c_printf("%8s :", below.c_str()) + body + c_printf(": %-8s | %lld\n", above.c_str(), count);
}

} // namespace dtrace::consumer
