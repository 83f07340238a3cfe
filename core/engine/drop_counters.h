// drop_counters.h: what the engine itself counts as lost, between the consumer's reads.
//
// The other drops are counted where they happen: in each principal buffer
// (records that did not fit), the aggregation store, the dynamic variables
// and the speculations. These are the ones with no home of their own: what
// plugins report and the engine's own faults. Kept under the engine's lock;
// the consumer takes each count (and zeroes it) when it reports.
#pragma once

#include <cstdint>

namespace dtrace::engine {

struct DropCounters {
    uint64_t reported = 0;      // events a plugin's source lost (reported with CPU 0's drops)
    uint64_t corrupt = 0;       // input a replaying plugin skipped as corrupt
    uint64_t trace_logger = 0;  // events a replayed trace's own logger lost while recording
    uint64_t double_errors = 0; // faults in ERROR clauses
};

} // namespace dtrace::engine
