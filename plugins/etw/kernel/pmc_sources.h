// pmc_sources.h: what a trace says of its performance counters.
//
// The kernel logger names its sampling sources in SampledProfileInterval
// events (PerfInfo 72 SetInterval, 73 CollectionStart, 74 CollectionEnd:
// Source, NewInterval, OldInterval, SourceName) and the counters it attaches
// to events in PmcCounterConfig (PerfInfo 48: CounterCount, then that many
// NUL-terminated UTF-16 names). A PMC sample (PerfInfo 47) gives only its
// source's id: its name is the trace's, else the one Windows gives the id
// in its fixed list of profile sources (KPROFILE_SOURCE), else none.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/mof_classes.h"
#include "reader/event.h"

namespace dtrace::etw::plugin::kernel {

inline constexpr uint8_t kPmcCounterConfigOpcode = 48;
inline constexpr uint8_t kSetIntervalOpcode = 72;
inline constexpr uint8_t kCollectionEndOpcode = 74;

class PmcSources {
  public:
    // Learns from a PerfInfo event (others are ignored).
    void note(const Event &event, const MofRecord &record);

    // The name of sampling source `id` ("" when nobody named it).
    std::string_view source_name(uint32_t id) const;
    // The counters the last PmcCounterConfig attached to events, in order.
    const std::vector<std::string> &counter_names() const { return counters_; }

  private:
    std::map<uint32_t, std::string> sources_;
    std::vector<std::string> counters_;
};

// The names of PmcCounterConfig's payload (after its count), at most
// `count`, as many as the payload holds whole.
std::vector<std::string> counter_config_names(std::span<const uint8_t> payload, uint32_t count);

} // namespace dtrace::etw::plugin::kernel
