// replay_clock.cpp: trace timers and the replay's first and last times.
#include "engine/replay_clock.h"

namespace dtrace::engine {

bool ReplayClock::add_timer(dtrace_probe_id probe, uint64_t interval_ns, bool per_cpu) {
    if (interval_ns == 0)
        return false;
    timers_.push_back({probe, interval_ns, per_cpu, 0});
    has_timers_.store(true, std::memory_order_release);
    return true;
}

dtrace_event_ctx ReplayClock::tick_context(const dtrace_event_ctx &event, uint64_t at) {
    dtrace_event_ctx tick{};
    tick.struct_size = sizeof tick;
    tick.timestamp = at;
    tick.walltimestamp = event.walltimestamp - event.timestamp + at;
    tick.pid = tick.ppid = tick.tid = 0; // no thread was interrupted: report the idle one
    tick.execname = "";
    tick.flags = DTRACE_EVENT_REPLAYED;
    return tick;
}

} // namespace dtrace::engine
