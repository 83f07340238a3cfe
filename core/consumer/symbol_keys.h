// symbol_keys.h: aggregation keys of sym(), mod(), usym(), umod() (and
// func(), ufunc()) merged by what they name.
//
// These keys are recorded as addresses, but they stand for a symbol or a
// module: `@[usym(arg1)] = count()` counts by function, not by address.
// DTrace's consumer makes it so when it reads a snapshot, by moving each
// such address to the start of its symbol (or module) and folding the
// entries that then have equal keys with the aggregating function. Here
// the entries whose keys print alike are folded: the symbolic parts
// compared by the text they print (and, for the user forms, the process
// they were recorded in, which DTrace's key keeps too), the other parts by
// their bytes. An address nothing names prints as itself, so it stays its
// own entry, as in DTrace. uaddr() keys are addresses and stay as they are.
#pragma once

#include "consumer/aggregation.h"
#include "consumer/printf_format.h"

#include <cstddef>
#include <vector>

namespace dtrace::consumer {

// Folds the entries of `agg` whose keys name the same symbols; each
// symbolic key part moves to the start of its symbol (or module) where the
// lookup knows it, so that %A prints the symbol, and the folded entry keeps
// the first one's key (which prints as every one of them). `sources`, when
// given, receives for each entry left the positions (in `agg` as it came)
// of the entries folded into it: what trunc() removes for it.
void merge_symbol_keys(AggregationSnapshot &agg, const Resolvers &resolvers,
                       std::vector<std::vector<size_t>> *sources = nullptr);

} // namespace dtrace::consumer
