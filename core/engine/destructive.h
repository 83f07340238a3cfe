// destructive.h: the destructive actions that act in probe context.
//
// raise(sig) signals the firing's process and stop() stops it (SIGSTOP),
// as DTrace does to the current process; both need the event to come from
// a live process (replays are refused when tracing starts, see
// enable_checks.h), and stop() never stops dtrace itself, which would hang
// the session. chill(ns) spins, at most 500 ms in any second, as DTrace.
#pragma once

#include "dif/fault.h"

#include <dtrace/provider.h>

#include <cstdint>

namespace dtrace::engine {

// IllOp for a signal number the system does not have.
dif::FaultKind raise_signal(const dtrace_event_ctx &ctx, uint64_t signal);
void stop_process(const dtrace_event_ctx &ctx);

class Chill {
  public:
    // IllOp when the time chilled this second would pass the limit.
    dif::FaultKind spin(uint64_t nanoseconds);

  private:
    uint64_t window_start_ = 0;
    uint64_t chilled_ = 0;
};

} // namespace dtrace::engine
