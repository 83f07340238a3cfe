// agg_format.cpp: aggregation rows and printa() (see agg_format.h).
#include "consumer/agg_format.h"

#include "consumer/bytes_format.h"
#include "consumer/cformat.h"
#include "consumer/distribution_format.h"
#include "consumer/packed_format.h"
#include "consumer/record_format.h"
#include "consumer/symbol_format.h"

#include <algorithm>

namespace dtrace::consumer {

using namespace aggdata; // the data layouts the formats read

namespace {

// Key columns: the width of an integer key by size (dt_print_datum()).
constexpr int kKeyWidth8 = 16;
constexpr int kKeyWidth4 = 8;
constexpr int kKeyWidth2 = 5;
constexpr int kKeyWidth1 = 3;
// agghist/aggpack: other keys (strings) take 16 columns, right-aligned.
constexpr int kPackedOtherWidth = 16;
// Values: " %16lld".
constexpr int kValueWidth = 16;

uint64_t unsigned_normal(int64_t normal) {
    return normal == 0 ? 1 : static_cast<uint64_t>(normal);
}

int integer_key_width(size_t size) {
    switch (size) {
    case sizeof(uint64_t):
        return kKeyWidth8;
    case sizeof(uint32_t):
        return kKeyWidth4;
    case sizeof(uint16_t):
        return kKeyWidth2;
    case sizeof(uint8_t):
        return kKeyWidth1;
    default:
        return 0;
    }
}

// The width agghist/aggpack headers give the keys: each column and its space.
int packed_keys_width(std::span<const Value> key) {
    int width = 0;
    for (const Value &k : key) {
        const int w = integer_key_width(k.record_size());
        width += (w != 0 ? w : kPackedOtherWidth) + 1;
    }
    return width;
}

void append_key_column(std::string &out, const Value &key, const AggPrintOptions &print, bool packed) {
    if (key.symbolic != Value::Symbolic::None) {
        out += format_symbol_record(symbolic_text(key, print.resolvers));
        return;
    }
    if (const int width = integer_key_width(key.size); key.kind == Value::Kind::Integer && width != 0) {
        // " %*lld" of an 8-byte key; a 4-byte key is handed to %d as is (a
        // signed view); narrower ones zero-extended.
        out += ' ';
        if (key.size == sizeof(uint64_t))
            return append_decimal(out, static_cast<long long>(key.as_signed()), width);
        if (key.size == sizeof(uint32_t))
            return append_decimal(out, static_cast<int>(static_cast<uint32_t>(key.as_unsigned())), width);
        return append_decimal(out, static_cast<int>(key.as_unsigned()), width);
    }
    if (key.kind == Value::Kind::Stack || key.kind == Value::Kind::UserStack) {
        out += format_stack(key, print.resolvers, print.stackindent);
        return;
    }
    const int width = packed ? kPackedOtherWidth : kAggKeyStringWidth;
    out += format_bytes(key.record(), width, false, print.rawbytes);
}

void append_value_column(std::string &out, const AggregationSnapshot &agg, std::span<const int64_t> data,
                         int64_t signed_normal, const AggPrintOptions &print) {
    const uint64_t normal = unsigned_normal(signed_normal);
    switch (agg.decl.func) {
    case AggFunc::Quantize:
    case AggFunc::Lquantize:
    case AggFunc::Llquantize:
        out += format_distribution(agg.decl.func, agg.decl.params, data, normal, print.zoom, print.bars_utf8);
        return;
    default: {
        const AggNumber number = aggregation_number(agg, data, signed_normal);
        out += ' ';
        if (number.is_signed)
            return append_decimal(out, static_cast<long long>(number.bits), kValueWidth);
        return append_decimal(out, static_cast<unsigned long long>(number.bits), kValueWidth);
    }
    }
}

void append_keys_columns(std::string &out, std::span<const Value> key, const AggPrintOptions &print,
                         bool packed = false) {
    for (const Value &k : key)
        append_key_column(out, k, print, packed);
}

// agghist: one scale for all of an aggregation's rows (dt_aggregate_total()).
BarScale hist_scale(const AggregationSnapshot &agg, bool zoom) {
    BarScale scale;
    int64_t total = 0;
    for (const AggEntry &e : agg.entries) {
        int64_t v = e.data.empty() ? 0 : e.data[0];
        scale.positives |= v > 0;
        scale.negatives |= v < 0;
        v = v < 0 ? -v : v;
        if (zoom) {
            v = static_cast<int64_t>(static_cast<long double>(v) * static_cast<long double>(1 / kZoomMaxHeight));
            total = std::max(total, v);
        } else {
            total += v;
        }
    }
    scale.total = static_cast<long double>(total);
    return scale;
}

// Rows print in sorted order, which walks the entries (and the key and
// data each points to) at random: with a million of them nearly every row
// would wait for memory. Asking for the entries a few rows ahead, and for
// their keys and data a little later, overlaps those waits.
void prefetch_ahead(const std::vector<AggEntry> &entries, const std::vector<size_t> &order, size_t n) {
    constexpr size_t kEntryDistance = 32, kContentDistance = 16;
#if defined(__GNUC__)
    if (n + kEntryDistance < order.size())
        __builtin_prefetch(&entries[order[n + kEntryDistance]]);
    if (n + kContentDistance < order.size()) {
        const AggEntry &e = entries[order[n + kContentDistance]];
        // A key element may straddle two cache lines.
        __builtin_prefetch(e.key.data());
        __builtin_prefetch(reinterpret_cast<const char *>(e.key.data()) + sizeof(Value) - 1);
        __builtin_prefetch(e.data.data());
    }
#endif
}

// Appends the rows of `agg` to `out` (a million rows make tens of
// megabytes: no copies of them).
void append_rows(std::string &out, const AggregationSnapshot &agg, const AggSortOptions &sort,
                 const AggPrintOptions &print) {
    const AggFunc func = agg.decl.func;
    const bool hist = print.hist && (func == AggFunc::Count || func == AggFunc::Sum);
    const bool pack = print.pack && (func == AggFunc::Quantize || func == AggFunc::Lquantize);
    const std::vector<size_t> order = sorted_entries(agg, sort);
    if (order.empty())
        return;

    BarScale scale;
    BinRange bins{kQuantizeZeroBucket, kQuantizeZeroBucket};
    const LquantizeParams lparams = lquantize_params(agg.decl.params);
    if (hist || pack) {
        const int width = packed_keys_width(agg.entries[order[0]].key);
        if (hist) {
            scale = hist_scale(agg, print.zoom);
            scale.utf8 = print.bars_utf8;
            out += distribution_header(width);
        } else if (func == AggFunc::Quantize) {
            bins = quantize_used_bins(agg.entries[order[0]].data);
            for (const AggEntry &e : agg.entries)
                bins = merge_bins(bins, quantize_used_bins(e.data));
            out += quantize_packed_header(width, bins);
        } else {
            out += lquantize_packed_header(width, lparams);
        }
    }

    for (size_t n = 0; n < order.size(); ++n) {
        prefetch_ahead(agg.entries, order, n);
        const AggEntry &e = agg.entries[order[n]];
        append_keys_columns(out, e.key, print, hist || pack);
        if (hist) {
            out += ' ';
            out += distribution_bar(e.data.empty() ? 0 : e.data[0], unsigned_normal(e.normal), scale);
        } else if (pack && func == AggFunc::Quantize) {
            out += format_quantize_packed(e.data, bins, print.zoom, print.pack_utf8);
        } else if (pack) {
            out += format_lquantize_packed(e.data, lparams, print.zoom, print.pack_utf8);
        } else {
            append_value_column(out, agg, e.data, e.normal, print);
            out += '\n';
        }
    }
}

} // namespace

AggNumber aggregation_number(const AggregationSnapshot &agg, std::span<const int64_t> data, int64_t signed_normal) {
    const uint64_t normal = unsigned_normal(signed_normal);
    switch (agg.decl.func) {
    case AggFunc::Avg: {
        const int64_t n = data.size() > 1 ? data[0] : 0;
        const int64_t mean = n != 0 ? data[1] / static_cast<int64_t>(normal) / n : 0;
        return {static_cast<uint64_t>(mean), true};
    }
    case AggFunc::Stddev:
        return {stddev_value(data, normal), false};
    default: {
        // DTrace divides by the unsigned normal, so the division is unsigned.
        const auto value = static_cast<uint64_t>(data.empty() ? 0 : data[0]);
        return {normal == 1 ? value : value / normal, true};
    }
    }
}

AggValue aggregation_value(const AggregationSnapshot &agg, std::span<const int64_t> data, int64_t signed_normal,
                           const AggPrintOptions &print) {
    AggValue v;
    const uint64_t normal = unsigned_normal(signed_normal);
    const auto first = static_cast<uint64_t>(data.empty() ? 0 : data[0]);
    switch (agg.decl.func) {
    case AggFunc::Count:
        v.scalar = Value::integer(first, sizeof(uint64_t), false);
        v.normal = signed_normal;
        break;
    case AggFunc::Sum:
    case AggFunc::Min:
    case AggFunc::Max:
        v.scalar = Value::integer(first, sizeof(uint64_t), true);
        v.normal = signed_normal;
        break;
    case AggFunc::Avg: {
        // printa() computes the average unsigned, unlike the default output.
        const auto sum = static_cast<uint64_t>(data.size() > 1 ? data[1] : 0);
        v.scalar = Value::integer(first != 0 ? sum / normal / first : 0, sizeof(uint64_t), true);
        break;
    }
    case AggFunc::Stddev:
        v.scalar = Value::integer(stddev_value(data, normal), sizeof(uint64_t), true);
        break;
    case AggFunc::Quantize:
    case AggFunc::Lquantize:
    case AggFunc::Llquantize:
        v.text = format_distribution(agg.decl.func, agg.decl.params, data, normal, print.zoom, print.bars_utf8);
        break;
    }
    return v;
}

std::string print_aggregation(const AggregationSnapshot &agg, const AggSortOptions &sort,
                              const AggPrintOptions &print) {
    std::string out = "\n";
    append_rows(out, agg, sort, print);
    return out;
}

std::string print_aggregations(std::span<const AggregationSnapshot> aggs, const AggSortOptions &sort,
                               const AggPrintOptions &print) {
    if (aggs.size() == 1)
        return print_aggregation(aggs[0], sort, print);
    std::string out = "\n";
    for (const JoinedRow &row : join_aggregations(aggs, sort)) {
        append_keys_columns(out, row.key, print);
        for (size_t i = 0; i < aggs.size(); ++i)
            append_value_column(out, aggs[i], row.data[i], row.normals[i], print);
        out += "\n";
    }
    return out;
}

std::string print_at_exit(std::span<const AggregationSnapshot> aggs, const AggSortOptions &sort,
                          const AggPrintOptions &print) {
    std::vector<const AggregationSnapshot *> order;
    for (const AggregationSnapshot &a : aggs)
        order.push_back(&a);
    std::stable_sort(order.begin(), order.end(), [&](const auto *l, const auto *r) {
        return sort.sortrev ? l->decl.id > r->decl.id : l->decl.id < r->decl.id;
    });
    std::string out = "\n";
    for (const AggregationSnapshot *a : order)
        append_rows(out, *a, sort, print);
    return out;
}

Result<std::string> printa_format(const Format &format, std::span<const AggregationSnapshot> aggs,
                                  const AggSortOptions &sort, const AggPrintOptions &print) {
    FormatContext context;
    context.resolvers = print.resolvers;
    std::string out;
    if (aggs.size() == 1) {
        const AggregationSnapshot &agg = aggs[0];
        for (const size_t i : sorted_entries(agg, sort)) {
            const AggValue value = aggregation_value(agg, agg.entries[i].data, agg.entries[i].normal, print);
            auto text = format_printa(format, agg.entries[i].key, std::span<const AggValue>(&value, 1), context);
            if (!text)
                return text.error();
            out += text.value();
        }
        return out;
    }
    for (const JoinedRow &row : join_aggregations(aggs, sort)) {
        std::vector<AggValue> values;
        for (size_t i = 0; i < aggs.size(); ++i)
            values.push_back(aggregation_value(aggs[i], row.data[i], row.normals[i], print));
        auto text = format_printa(format, row.key, values, context);
        if (!text)
            return text.error();
        out += text.value();
    }
    return out;
}

} // namespace dtrace::consumer
