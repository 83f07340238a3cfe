// counter_reader.h: where the engine reads the counters D names as
// pmc["page-faults"] (VarId::Pmc, whose index is the counter's id).
//
// The compiler resolves each counter name once, through the plugin that
// declares the counter array (the host's PluginCounters); in probe context
// the engine asks the same plugin for the firing thread's count.
#pragma once

#include <dtrace/provider.h>

#include <cstdint>

namespace dtrace::engine {

class CounterReader {
  public:
    // The count of counter `id` for the firing `ctx`; false when the firing
    // does not carry it (the clause faults).
    virtual bool read_counter(uint32_t id, const dtrace_event_ctx &ctx, uint64_t &value) const = 0;

  protected:
    ~CounterReader() = default;
};

} // namespace dtrace::engine
