// agg_sort.h: the order DTrace prints aggregation entries in.
//
// By default entries are sorted by value (each aggregating function has its
// own notion: the average, the standard deviation, the weighted sum of a
// distribution and then its zero bucket), ties broken by key; aggsortkey
// sorts by key, aggsortkeypos rotates which key element comes first,
// aggsortrev reverses everything. Keys compare by record size, then as
// unsigned integers (so -1 sorts after 1), usym()/umod()/uaddr() keys as
// their process id and then address, others byte by byte.
#pragma once

#include "consumer/aggregation.h"

#include <cstddef>
#include <span>
#include <vector>

namespace dtrace::consumer {

// <0, 0, >0 like memcmp. `keypos` as aggsortkeypos (out of range means 0).
int compare_keys(std::span<const Value> lhs, std::span<const Value> rhs, int keypos);
int compare_values(compiler::AggFunc func, std::span<const int64_t> params, std::span<const int64_t> lhs,
                   std::span<const int64_t> rhs);

// The entries of one aggregation in printing order (indices into entries).
std::vector<size_t> sorted_entries(const AggregationSnapshot &agg, const AggSortOptions &options);

// printa() of several aggregations: one row per distinct key, with each
// aggregation's data (zeroes where it has none for that key), in DTrace's
// order. The data are in the order the aggregations were given.
struct JoinedRow {
    std::vector<Value> key;
    std::vector<std::vector<int64_t>> data;
    std::vector<int64_t> normals; // each aggregation's normal for this key
};
std::vector<JoinedRow> join_aggregations(std::span<const AggregationSnapshot> aggs, const AggSortOptions &options);

// The zero-filled data DTrace substitutes for a key an aggregation lacks.
std::vector<int64_t> zero_data(const AggregationSnapshot &agg);

} // namespace dtrace::consumer
