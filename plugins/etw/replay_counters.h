// replay_counters.h: pmc["name"] on a replayed ETW trace.
//
// A kernel logger that counts with the CPU's performance counters attaches
// their values to events: after the header of a kernel record (its version
// says how many) or as a PMC_COUNTERS extended item of an EVENT_HEADER
// event, in the order of the trace's last PmcCounterConfig event (PerfInfo
// 48, kernel/pmc_sources.h). Each event's dtrace_event_ctx carries them by
// name; pmc["InstructionRetired"] (names compared without regard to case)
// reads the firing event's value, and faults on an event without it. Names
// cannot be checked when the program compiles: the configuration is in the
// trace, read later.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <dtrace/provider.h>

#include "kernel/pmc_sources.h"
#include "reader/event.h"

namespace dtrace::etw::plugin {

class ReplayCounters {
  public:
    // The SDK's resolve_counter: declines (-1, why NULL) when nothing is
    // replayed, so that a live plugin of the same array answers.
    int resolve(bool replaying, const char *name, uint64_t &cookie, const char *&why);
    // The SDK's read_counter, from the counters ctx carries.
    int read(uint64_t cookie, const dtrace_event_ctx &ctx, uint64_t &value) const;

  private:
    std::vector<std::string> names_; // by cookie; written while compiling only
};

// The counters `event` carries, named by the trace's configuration (the
// names and values the two have in common, in order); out's names point
// into pmc, valid until its next configuration.
void event_counters(const Event &event, const kernel::PmcSources &pmc, std::vector<dtrace_counter_value> &out);

} // namespace dtrace::etw::plugin
