// aggregation_merge.h: a kernel aggregation map, read back, as the engine's
// aggregation data.
//
// The kernel's maps only grow (nothing there is cleared), so each read is
// compared with the previous one and only what changed is merged into the
// engine's table, with aggdata's own merge: the engine's clear(), trunc()
// and normalize() act on its table as on any aggregation, and an entry
// trunc() removed comes back only when the kernel counts it again.
//
// A stack() key holds the kernel's frames, the tracing machinery's atop
// (kernel_stacks.h): kernel entries whose keys differ only in frames the
// engine's key does not hold are one entry of the engine's.
#pragma once

#include "fastpath/kernel_frame.h"
#include "fastpath/kernel_stacks.h"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace dtrace::fastpath {

// One kernel entry: the key's bytes and each CPU's value words.
struct KernelEntry {
    std::string key;
    std::vector<std::vector<int64_t>> cpu_values;
};

// The engine's encoding of a kernel key (aggregation_store.h's encode_key()).
std::string engine_key(const KernelAggregation &agg, std::string_view kernel_key, const KernelStackSkip &skip = {});
// The CPUs' values folded into the engine's layout (aggdata/agg_data.h).
std::vector<int64_t> engine_data(const KernelAggregation &agg, const std::vector<std::vector<int64_t>> &cpu_values);

class AggregationDeltas {
  public:
    using Change = std::pair<std::string, std::vector<int64_t>>; // engine key, data to merge
    // What changed in `agg` since the previous call with its entries.
    std::vector<Change> changes(const KernelAggregation &agg, const std::vector<KernelEntry> &entries,
                                const KernelStackSkip &skip = {});

  private:
    std::map<std::pair<std::string, std::string>, std::vector<int64_t>> seen_; // (aggregation, engine key)
};

} // namespace dtrace::fastpath
