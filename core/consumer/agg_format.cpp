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

namespace {

// Key columns: the width of an integer key by size (dt_print_datum()).
constexpr int kKeyWidth8 = 16;
constexpr int kKeyWidth4 = 8;
constexpr int kKeyWidth2 = 5;
constexpr int kKeyWidth1 = 3;
// agghist/aggpack: other keys (strings) take 16 columns, right-aligned.
constexpr int kPackedOtherWidth = 16;

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

std::string key_column(const Value &key, const AggPrintOptions &print, bool packed) {
    if (key.symbolic != Value::Symbolic::None)
        return format_symbol_record(symbolic_text(key, print.resolvers));
    if (key.kind == Value::Kind::Integer) {
        const int width = integer_key_width(key.size);
        if (key.size == sizeof(uint64_t))
            return c_printf(" %*lld", width, static_cast<long long>(key.as_signed()));
        // A 4-byte key is handed to %d as is (a signed view); narrower ones zero-extended.
        if (key.size == sizeof(uint32_t))
            return c_printf(" %*d", width, static_cast<int>(static_cast<uint32_t>(key.as_unsigned())));
        if (width != 0)
            return c_printf(" %*d", width, static_cast<int>(key.as_unsigned()));
    }
    if (key.kind == Value::Kind::Stack || key.kind == Value::Kind::UserStack)
        return format_stack(key, print.resolvers, print.stackindent);
    return format_bytes(key.record(), packed ? kPackedOtherWidth : kAggKeyStringWidth, false, print.rawbytes);
}

std::string value_column(const AggregationSnapshot &agg, std::span<const int64_t> data, int64_t signed_normal,
                         const AggPrintOptions &print) {
    const uint64_t normal = unsigned_normal(signed_normal);
    switch (agg.decl.func) {
    case AggFunc::Quantize:
    case AggFunc::Lquantize:
    case AggFunc::Llquantize:
        return format_distribution(agg.decl.func, agg.decl.params, data, normal, print.zoom);
    case AggFunc::Avg: {
        const int64_t n = data.size() > 1 ? data[0] : 0;
        const int64_t mean = n != 0 ? data[1] / static_cast<int64_t>(normal) / n : 0;
        return c_printf(" %16lld", static_cast<long long>(mean));
    }
    case AggFunc::Stddev:
        return c_printf(" %16llu", static_cast<unsigned long long>(stddev_value(data, normal)));
    default:
        // DTrace divides by the unsigned normal, so the division is unsigned.
        return c_printf(" %16lld", static_cast<long long>(static_cast<uint64_t>(data.empty() ? 0 : data[0]) / normal));
    }
}

std::string keys_columns(std::span<const Value> key, const AggPrintOptions &print, bool packed = false) {
    std::string out;
    for (const Value &k : key)
        out += key_column(k, print, packed);
    return out;
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

std::string rows_of(const AggregationSnapshot &agg, const AggSortOptions &sort, const AggPrintOptions &print) {
    const AggFunc func = agg.decl.func;
    const bool hist = print.hist && (func == AggFunc::Count || func == AggFunc::Sum);
    const bool pack = print.pack && (func == AggFunc::Quantize || func == AggFunc::Lquantize);
    const std::vector<size_t> order = sorted_entries(agg, sort);
    if (order.empty())
        return {};

    std::string out;
    BarScale scale;
    BinRange bins{kQuantizeZeroBucket, kQuantizeZeroBucket};
    const LquantizeParams lparams = lquantize_params(agg.decl.params);
    if (hist || pack) {
        const int width = packed_keys_width(agg.entries[order[0]].key);
        if (hist) {
            scale = hist_scale(agg, print.zoom);
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

    for (const size_t i : order) {
        const AggEntry &e = agg.entries[i];
        out += keys_columns(e.key, print, hist || pack);
        if (hist)
            out += " " + distribution_bar(e.data.empty() ? 0 : e.data[0], unsigned_normal(e.normal), scale);
        else if (pack && func == AggFunc::Quantize)
            out += format_quantize_packed(e.data, bins, print.zoom, print.pack_utf8);
        else if (pack)
            out += format_lquantize_packed(e.data, lparams, print.zoom, print.pack_utf8);
        else
            out += value_column(agg, e.data, e.normal, print) + "\n";
    }
    return out;
}

} // namespace

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
        v.text = format_distribution(agg.decl.func, agg.decl.params, data, normal, print.zoom);
        break;
    }
    return v;
}

std::string print_aggregation(const AggregationSnapshot &agg, const AggSortOptions &sort,
                              const AggPrintOptions &print) {
    return "\n" + rows_of(agg, sort, print);
}

std::string print_aggregations(std::span<const AggregationSnapshot> aggs, const AggSortOptions &sort,
                               const AggPrintOptions &print) {
    if (aggs.size() == 1)
        return print_aggregation(aggs[0], sort, print);
    std::string out = "\n";
    for (const JoinedRow &row : join_aggregations(aggs, sort)) {
        out += keys_columns(row.key, print);
        for (size_t i = 0; i < aggs.size(); ++i)
            out += value_column(aggs[i], row.data[i], row.normals[i], print);
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
        out += rows_of(*a, sort, print);
    return out;
}

Expected<std::string> printa_format(const Format &format, std::span<const AggregationSnapshot> aggs,
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
