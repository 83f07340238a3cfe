// json_format.h: -x oformat=json and -x stackformat=folded, for tools.
//
// With oformat=json every line of output is one JSON object (docs/dtrace.1,
// "JSON OUTPUT", is the schema): a firing's records, or an aggregation with
// its rows in the order the text would print them. With stackformat=folded
// an aggregation prints as the folded stacks flame graph tools read: one
// line per row, the keys joined by ';' (a stack's frames outermost first),
// a space, and the value.
#pragma once

#include "consumer/agg_sort.h"
#include "consumer/aggregation.h"
#include "consumer/printf_format.h"
#include "consumer/value.h"

#include <string>
#include <string_view>

namespace dtrace::consumer {

// A JSON string literal: quotes, backslashes and control characters escaped.
std::string json_string(std::string_view text);

// A recorded value: integers as numbers, strings as strings, stacks as
// arrays of frame names (innermost first), sym()/mod()... as their names,
// other bytes as arrays of numbers.
std::string json_value(const Value &value, const Resolvers &resolvers);

// {"aggregation": ..., "function": ..., "rows": [...]} and a newline.
std::string json_aggregation(const AggregationSnapshot &agg, const AggSortOptions &sort, const Resolvers &resolvers);

// One "key;key;frame;frame value" line per row.
std::string folded_aggregation(const AggregationSnapshot &agg, const AggSortOptions &sort, const Resolvers &resolvers);

} // namespace dtrace::consumer
