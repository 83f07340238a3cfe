// aggregation.h: an aggregation as the consumer receives it from the engine.
//
// The engine snapshots each aggregation (all per-CPU data merged) into plain
// entries: the key tuple and the data words laid out as agg_data.h says.
// Sorting and printing work on these snapshots alone.
#pragma once

#include "aggdata/agg_data.h"
#include "compiler/program.h"
#include "consumer/value.h"

#include <cstdint>
#include <vector>

namespace dtrace::consumer {

struct AggEntry {
    std::vector<Value> key;
    std::vector<int64_t> data;
    // normalize() applies to the entries present when the consumer carries
    // it out; an entry created later prints unnormalized, as in DTrace.
    int64_t normal = 1;
};

struct AggregationSnapshot {
    compiler::AggregationDecl decl;
    std::vector<AggEntry> entries;
};

// The sorting options: aggsortkey, aggsortkeypos, aggsortpos, aggsortrev.
struct AggSortOptions {
    bool sortkey = false; // by key first instead of by value
    int sortkeypos = 0;   // the key element compared first
    int sortpos = 0;      // printa() of several aggregations: whose value sorts
    bool sortrev = false; // reverse everything
};

} // namespace dtrace::consumer
