// agg_format.h: printing aggregations, with and without printa() formats.
//
// Without a format, each entry is one row: the key elements as trace()
// would show them in a table (integers right-aligned by size, strings in 50
// columns after two spaces), then the value (" %16lld", or a distribution).
// agghist and aggpack put a header above an aggregation's rows and narrow
// string keys to 16 columns.
// printa(@a) prints a newline first, then the rows; at exit dtrace(1M)
// prints a newline and then every aggregation no printa() has printed.
// With a format, each entry is one format_printa() of its keys and value.
#pragma once

#include "common/result.h"
#include "consumer/agg_sort.h"
#include "consumer/aggregation.h"
#include "consumer/printf_format.h"
#include "consumer/stack_format.h"

#include <span>
#include <string>

namespace dtrace::consumer {

struct AggPrintOptions {
    bool zoom = false;      // -x aggzoom: bars scaled to the tallest row
    bool hist = false;      // -x agghist: count() and sum() rows as bars of one distribution
    bool pack = false;      // -x aggpack: quantize() and lquantize() rows on one line each
    bool pack_utf8 = true;  // aggpack cells as UTF-8 blocks; DTrace uses ASCII when TERM is
                            // sun, sun-color or dumb, or with -x encoding=ascii
    bool bars_utf8 = false; // -x encoding=utf8: distribution bars of Unicode block elements
    bool rawbytes = false;  // -x rawbytes: non-integer keys as hex dumps
    int stackindent = kDefaultStackIndent;
    Resolvers resolvers; // symbol names for stack keys and %a/%k in formats
};

// printa(@a): a newline, then one row per entry in sorted order.
std::string print_aggregation(const AggregationSnapshot &agg, const AggSortOptions &sort,
                              const AggPrintOptions &print = {});

// printa(@a, @b, ...): a newline, then one row per distinct key holding each
// aggregation's value in turn (zero where an aggregation lacks the key).
std::string print_aggregations(std::span<const AggregationSnapshot> aggs, const AggSortOptions &sort,
                               const AggPrintOptions &print = {});

// What dtrace(1M) prints once tracing has stopped: a newline (always), then
// the rows of each aggregation in `aggs`, in order of first appearance in
// the program (reversed with aggsortrev). The caller leaves out aggregations
// a printa() has already printed, as DTrace does.
std::string print_at_exit(std::span<const AggregationSnapshot> aggs, const AggSortOptions &sort,
                          const AggPrintOptions &print = {});

// printa("format", @a, ...): the format once per entry (per distinct key for
// several aggregations), no leading newline.
Result<std::string> printa_format(const Format &format, std::span<const AggregationSnapshot> aggs,
                                  const AggSortOptions &sort, const AggPrintOptions &print = {});

// The number the default layout prints for a count(), sum(), min(), max(),
// avg() or stddev() entry (the JSON and folded outputs print the same one),
// with the signedness it is printed with.
struct AggNumber {
    uint64_t bits = 0;
    bool is_signed = true;
};
AggNumber aggregation_number(const AggregationSnapshot &agg, std::span<const int64_t> data, int64_t normal);

// The value a %@ conversion prints for one entry's data and normal.
AggValue aggregation_value(const AggregationSnapshot &agg, std::span<const int64_t> data, int64_t normal = 1,
                           const AggPrintOptions &print = {});

} // namespace dtrace::consumer
