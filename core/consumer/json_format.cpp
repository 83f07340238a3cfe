// json_format.cpp: aggregations and records as JSON lines, stacks folded.
#include "consumer/json_format.h"

#include "aggdata/agg_data.h"
#include "consumer/agg_format.h"
#include "consumer/stack_format.h"
#include "consumer/symbol_format.h"

#include <cstdio>
#include <vector>

namespace dtrace::consumer {

using namespace aggdata; // the data layouts the formats read

namespace {

constexpr const char *kFunctionNames[] = {"count",  "sum",      "avg",       "min",       "max",
                                          "stddev", "quantize", "lquantize", "llquantize"};

std::string number_text(uint64_t bits, bool is_signed) {
    return is_signed ? std::to_string(static_cast<int64_t>(bits)) : std::to_string(bits);
}

bool is_stack(const Value &value) {
    return value.kind == Value::Kind::Stack || value.kind == Value::Kind::UserStack;
}

// A stack's frame names, innermost first, as stack() would print them.
std::vector<std::string> frames_of(const Value &stack, const Resolvers &resolvers) {
    std::vector<std::string> frames;
    (void)format_stack(stack, resolvers, 0, [&frames](const std::string &frame) {
        frames.push_back(frame);
        return std::string();
    });
    return frames;
}

// A key element as one folded-stack frame (or several, for a stack).
std::string folded_key(const Value &key, const Resolvers &resolvers) {
    if (is_stack(key)) {
        std::vector<std::string> frames = frames_of(key, resolvers);
        std::string out;
        for (auto it = frames.rbegin(); it != frames.rend(); ++it)
            out += (out.empty() ? "" : ";") + *it;
        return out;
    }
    if (key.symbolic != Value::Symbolic::None)
        return symbolic_text(key, resolvers);
    if (key.kind == Value::Kind::Integer)
        return number_text(key.as_unsigned(), key.is_signed);
    return key.bytes;
}

// The lower bound of distribution bucket `i` ("null" for the open-ended lowest
// bucket of lquantize and llquantize); `starts` are llquantize's bucket starts.
std::string bucket_min(const AggregationSnapshot &agg, std::span<const int64_t> starts, int i) {
    switch (agg.decl.func) {
    case AggFunc::Quantize:
        return std::to_string(quantize_bucket_value(i));
    case AggFunc::Lquantize: {
        const LquantizeParams p = lquantize_params(agg.decl.params);
        if (i == 0)
            return std::string("null");
        return std::to_string(int64_t(p.base) + int64_t(i - 1) * p.step);
    }
    default:
        if (i == 0 || static_cast<size_t>(i) >= starts.size())
            return std::string("null");
        return std::to_string(starts[static_cast<size_t>(i)]);
    }
}

std::string distribution_json(const AggregationSnapshot &agg, std::span<const int64_t> data) {
    const std::vector<int64_t> starts = agg.decl.func == AggFunc::Llquantize
                                            ? llquantize_bucket_starts(llquantize_params(agg.decl.params))
                                            : std::vector<int64_t>{};
    std::string out = "{\"buckets\": [";
    bool first = true;
    for (size_t i = 0; i < data.size(); ++i) {
        if (data[i] == 0)
            continue;
        out += first ? "{" : ", {";
        first = false;
        out += "\"min\": " + bucket_min(agg, starts, int(i)) + ", \"count\": " + std::to_string(data[i]) + "}";
    }
    return out + "]}";
}

bool is_distribution(AggFunc func) {
    return func == AggFunc::Quantize || func == AggFunc::Lquantize || func == AggFunc::Llquantize;
}

std::string entry_value(const AggregationSnapshot &agg, const AggEntry &entry) {
    if (is_distribution(agg.decl.func))
        return distribution_json(agg, entry.data);
    const AggNumber number = aggregation_number(agg, entry.data, entry.normal);
    return number_text(number.bits, number.is_signed);
}

} // namespace

std::string json_string(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (byte < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string json_value(const Value &value, const Resolvers &resolvers) {
    if (is_stack(value)) {
        std::string out = "[";
        for (const std::string &frame : frames_of(value, resolvers))
            out += (out.size() == 1 ? "" : ", ") + json_string(frame);
        return out + "]";
    }
    if (value.symbolic != Value::Symbolic::None)
        return json_string(symbolic_text(value, resolvers));
    switch (value.kind) {
    case Value::Kind::Integer:
        return number_text(value.is_signed ? uint64_t(value.as_signed()) : value.as_unsigned(), value.is_signed);
    case Value::Kind::String:
        return json_string(value.bytes);
    default: {
        std::string out = "[";
        for (char c : value.bytes)
            out += (out.size() == 1 ? "" : ", ") + std::to_string(static_cast<unsigned char>(c));
        return out + "]";
    }
    }
}

std::string json_aggregation(const AggregationSnapshot &agg, const AggSortOptions &sort, const Resolvers &resolvers) {
    std::string out = "{\"aggregation\": " + json_string("@" + agg.decl.name) +
                      ", \"function\": " + json_string(kFunctionNames[static_cast<int>(agg.decl.func)]) +
                      ", \"rows\": [";
    bool first = true;
    for (size_t i : sorted_entries(agg, sort)) {
        const AggEntry &entry = agg.entries[i];
        out += first ? "{\"keys\": [" : ", {\"keys\": [";
        first = false;
        for (size_t k = 0; k < entry.key.size(); ++k)
            out += (k == 0 ? "" : ", ") + json_value(entry.key[k], resolvers);
        out += "], \"value\": " + entry_value(agg, entry) + "}";
    }
    return out + "]}\n";
}

std::string folded_aggregation(const AggregationSnapshot &agg, const AggSortOptions &sort, const Resolvers &resolvers) {
    std::string out;
    for (size_t i : sorted_entries(agg, sort)) {
        const AggEntry &entry = agg.entries[i];
        std::string line;
        for (const Value &key : entry.key)
            line += (line.empty() ? "" : ";") + folded_key(key, resolvers);
        uint64_t total = 0;
        if (is_distribution(agg.decl.func)) {
            for (int64_t count : entry.data)
                total += static_cast<uint64_t>(count);
            line += " " + std::to_string(total);
        } else {
            const AggNumber number = aggregation_number(agg, entry.data, entry.normal);
            line += " " + number_text(number.bits, number.is_signed);
        }
        out += line + "\n";
    }
    return out;
}

} // namespace dtrace::consumer
