// distribution_format.cpp: quantize art (see distribution_format.h).
#include "consumer/distribution_format.h"

#include "common/utf8.h"
#include "consumer/cformat.h"

#include <algorithm>

namespace dtrace::consumer {

using namespace aggdata; // the data layouts the formats read

namespace {

constexpr unsigned kBarWidth = 40;
constexpr long double kRound = 0.5L;
constexpr int kLabelWidth = 16;
constexpr uint32_t kFullBlock = 0x2588;          // FULL BLOCK
constexpr uint32_t kOneEighthLeftBlock = 0x258f; // LEFT ONE EIGHTH BLOCK; U+2589..U+258E are wider
constexpr unsigned kEighths = 8;

// The rows shown: first..last inclusive.
struct Range {
    int first;
    int last;
};

// From the first non-zero bucket to the last, widened by one zero row on each
// side; `empty` when no bucket before `scan_limit` holds anything. (DTrace's
// quantize() stops that scan short of its top bucket, so a lone count there
// shows the rows around zero instead.)
Range trimmed(std::span<const int64_t> data, Range empty, size_t scan_limit) {
    const int n = static_cast<int>(data.size());
    size_t first = 0;
    while (first < scan_limit && data[first] == 0)
        ++first;
    if (first == scan_limit)
        return empty;
    int last = n - 1;
    while (last > 0 && data[static_cast<size_t>(last)] == 0)
        --last;
    const int f = static_cast<int>(first);
    return Range{f > 0 ? f - 1 : f, last < n - 1 ? last + 1 : last};
}

long double magnitude(int64_t v) {
    const auto ld = static_cast<long double>(v);
    return ld < 0 ? -ld : ld;
}

BarScale scale_of(std::span<const int64_t> data, Range r, bool zoom, bool utf8) {
    BarScale s;
    s.utf8 = utf8;
    for (int i = r.first; i <= r.last; ++i)
        add_to_scale(s, data[static_cast<size_t>(i)], zoom);
    return s;
}

std::string repeat(char c, unsigned n) {
    return std::string(n, c);
}

std::string label(const std::string &text) {
    return c_printf("%*s ", kLabelWidth, text.c_str());
}

// A positive row's bar in block elements: whole cells of full blocks, then
// the fraction left over in eighths (dt_print_quantline_utf8()).
std::string utf8_bar(int64_t value, const BarScale &s) {
    const long double f = s.total == 0 ? 0 : (magnitude(value) * kBarWidth) / s.total;
    const unsigned whole = std::min(static_cast<unsigned>(f), kBarWidth);
    const auto partial = static_cast<unsigned>((f - static_cast<long double>(whole)) * kEighths);
    std::string bar = "|";
    for (unsigned i = 0; i < whole; ++i)
        common::append_utf8(bar, kFullBlock);
    unsigned cells = whole;
    if (partial != 0 && cells < kBarWidth) {
        common::append_utf8(bar, kOneEighthLeftBlock - (partial - 1));
        ++cells;
    }
    return bar + repeat(' ', kBarWidth - cells);
}

} // namespace

void add_to_scale(BarScale &s, int64_t value, bool zoom) {
    s.positives |= value > 0;
    s.negatives |= value < 0;
    long double m = magnitude(value);
    if (!zoom) {
        s.total += m;
        return;
    }
    m *= static_cast<long double>(1 / kZoomMaxHeight);
    if (s.total < m)
        s.total = m;
}

std::string distribution_header(int key_width) {
    return c_printf("\n%*s %41s %-9s\n", key_width != 0 ? key_width : kLabelWidth, key_width != 0 ? "key" : "value",
                    "------------- Distribution -------------", "count");
}

// One bar and its count (dt_print_quantline()).
std::string distribution_bar(int64_t value, uint64_t normal, const BarScale &s) {
    // DTrace divides the signed count by the unsigned normal: an unsigned
    // division, printed back as signed.
    const auto shown = static_cast<long long>(static_cast<uint64_t>(value) / (normal == 0 ? 1 : normal));
    auto depth_of = [&](unsigned len) {
        if (s.total == 0)
            return 0U;
        const long double f = (magnitude(value) * len) / s.total;
        const auto d = static_cast<unsigned>(f + kRound);
        return d > len ? len : d;
    };
    if (!s.negatives && s.positives && s.utf8)
        return utf8_bar(value, s) + c_printf(" %-9lld\n", shown);
    if (!s.negatives) {
        const unsigned depth = s.positives ? depth_of(kBarWidth) : 0;
        return "|" + repeat('@', depth) + repeat(' ', kBarWidth - depth) + c_printf(" %-9lld\n", shown);
    }
    if (!s.positives) {
        const unsigned depth = depth_of(kBarWidth);
        return repeat(' ', kBarWidth - depth) + repeat('@', depth) + c_printf("| %-9lld\n", shown);
    }
    const unsigned half = kBarWidth / 2;
    const unsigned depth = depth_of(half);
    if (value <= 0) {
        return repeat(' ', half - depth) + repeat('@', depth) + "|" + repeat(' ', half) + c_printf(" %-9lld\n", shown);
    }
    return repeat(' ', half) + "|" + repeat('@', depth) + repeat(' ', half - depth) + c_printf(" %-9lld\n", shown);
}

std::string format_quantize(std::span<const int64_t> data, uint64_t normal, bool zoom, bool utf8) {
    if (data.size() != static_cast<size_t>(kQuantizeBuckets))
        return {};
    // With no data at all (cleared, or negative increments summing to zero)
    // DTrace shows the buckets around zero.
    const Range shown =
        trimmed(data, {kQuantizeZeroBucket - 1, kQuantizeZeroBucket + 1}, static_cast<size_t>(kQuantizeBuckets - 1));
    const BarScale s = scale_of(data, shown, zoom, utf8);
    std::string out = distribution_header();
    for (int i = shown.first; i <= shown.last; ++i) {
        out += c_printf("%16lld ", static_cast<long long>(quantize_bucket_value(i)));
        out += distribution_bar(data[static_cast<size_t>(i)], normal, s);
    }
    return out;
}

std::string format_lquantize(std::span<const int64_t> data, const LquantizeParams &p, uint64_t normal, bool zoom,
                             bool utf8) {
    const int buckets = p.levels + 2;
    if (data.size() != static_cast<size_t>(buckets))
        return {};
    const Range r = trimmed(data, {0, std::min(2, buckets - 1)}, data.size());
    const BarScale s = scale_of(data, r, zoom, utf8);
    std::string out = distribution_header();
    for (int i = r.first; i <= r.last; ++i) {
        if (i == 0)
            out += label("< " + std::to_string(p.base));
        else if (i == p.levels + 1)
            out += label(">= " + std::to_string(p.base + p.levels * p.step));
        else
            out += c_printf("%16d ", p.base + (i - 1) * p.step);
        out += distribution_bar(data[static_cast<size_t>(i)], normal, s);
    }
    return out;
}

std::string format_llquantize(std::span<const int64_t> data, const LlquantizeParams &p, uint64_t normal, bool zoom,
                              bool utf8) {
    const int levels = static_cast<int>(data.size());
    const std::vector<int64_t> starts = llquantize_bucket_starts(p);
    const int last = static_cast<int>(starts.size()) - 1; // at or above starts[last]
    if (last < 1 || levels < 2)
        return {};
    const Range r = trimmed(data, {0, 1}, data.size());
    const BarScale s = scale_of(data, r, zoom, utf8);
    std::string out = distribution_header();
    if (r.first == 0) {
        out += label("< " + std::to_string(starts[1]));
        out += distribution_bar(data[0], normal, s);
    }
    for (int bin = std::max(r.first, 1); bin < last && bin < levels && bin <= r.last; ++bin) {
        out += c_printf("%16lld ", static_cast<long long>(starts[static_cast<size_t>(bin)]));
        out += distribution_bar(data[static_cast<size_t>(bin)], normal, s);
    }
    if (r.last < last || last >= levels)
        return out;
    out += label(">= " + std::to_string(starts[static_cast<size_t>(last)]));
    out += distribution_bar(data[static_cast<size_t>(last)], normal, s);
    return out;
}

std::string format_distribution(AggFunc func, std::span<const int64_t> params, std::span<const int64_t> data,
                                uint64_t normal, bool zoom, bool utf8) {
    switch (func) {
    case AggFunc::Quantize:
        return format_quantize(data, normal, zoom, utf8);
    case AggFunc::Lquantize:
        return format_lquantize(data, lquantize_params(params), normal, zoom, utf8);
    case AggFunc::Llquantize:
        return format_llquantize(data, llquantize_params(params), normal, zoom, utf8);
    default:
        return {};
    }
}

} // namespace dtrace::consumer
