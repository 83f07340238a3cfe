// replay_clock.h: trace time while a plugin replays a recorded trace.
//
// A replay runs on the trace's clock, not the machine's: tick-N and
// profile-N fire at the trace's timestamps, interleaved with the events as
// they would have been live (trace timers); BEGIN fires at the trace's first
// time (held back until the first replayed event says what it is); END at
// its last. The engine keeps one of these per session and touches it only
// from replayed firings (and BEGIN/END), under its probe-context lock but
// for the times noted of every replayed event; live firings never see it.
#pragma once

#include <dtrace/provider.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace dtrace::engine {

class ReplayClock {
  public:
    // A timer on trace time (tick-N while replaying): false for an interval of 0.
    bool add_timer(dtrace_probe_id probe, uint64_t interval_ns, bool per_cpu);
    bool has_timers() const { return has_timers_.load(std::memory_order_acquire); }

    // BEGIN waits for the first replayed event when the session replays
    // (read without the lock by every replayed firing, hence atomic).
    void hold_begin() { begin_held_.store(true, std::memory_order_release); }
    bool begin_held() const { return begin_held_.load(std::memory_order_acquire); }
    void begin_fired() { begin_held_.store(false, std::memory_order_release); }

    // Notes the time of every replayed event, matched or not (without the
    // lock: one replay thread writes them).
    void note(const dtrace_event_ctx &ctx) {
        last_time_.store(ctx.timestamp, std::memory_order_relaxed);
        last_wall_.store(ctx.walltimestamp, std::memory_order_relaxed);
    }
    // The last replayed event's times (0 before the first): END's.
    uint64_t last_time() const { return last_time_.load(std::memory_order_relaxed); }
    uint64_t last_wall() const { return last_wall_.load(std::memory_order_relaxed); }

    // Calls fire(probe, tick context) for every timer firing due at or before
    // ctx.timestamp, in time order per timer, each at its own timestamp; per-CPU
    // timers once per CPU seen so far. fire may release and retake the lock
    // the caller holds (to wait for the consumer): the clock's state is
    // updated before each call.
    template <class Fire> void advance(const dtrace_event_ctx &ctx, Fire &&fire);

  private:
    struct Timer {
        dtrace_probe_id probe;
        uint64_t interval;
        bool per_cpu;
        uint64_t next; // 0 until the first replayed event starts the clock
    };
    static dtrace_event_ctx tick_context(const dtrace_event_ctx &event, uint64_t at);

    std::vector<Timer> timers_;
    std::atomic<bool> has_timers_{false};
    uint32_t cpus_ = 0; // CPUs seen in the replayed events
    std::atomic<uint64_t> last_time_{0}, last_wall_{0};
    std::atomic<bool> begin_held_{false};
};

template <class Fire> void ReplayClock::advance(const dtrace_event_ctx &ctx, Fire &&fire) {
    cpus_ = ctx.cpu + 1 > cpus_ ? ctx.cpu + 1 : cpus_;
    for (size_t i = 0; i < timers_.size(); i++) {
        if (timers_[i].next == 0)
            timers_[i].next = ctx.timestamp + timers_[i].interval;
        while (timers_[i].next <= ctx.timestamp) {
            Timer &timer = timers_[i];
            dtrace_event_ctx tick = tick_context(ctx, timer.next);
            timer.next += timer.interval;
            const uint32_t cpus = timer.per_cpu ? cpus_ : 1u;
            const dtrace_probe_id probe = timer.probe;
            const bool per_cpu = timer.per_cpu;
            for (uint32_t cpu = 0; cpu < cpus; cpu++) {
                tick.cpu = per_cpu ? cpu : ctx.cpu;
                fire(probe, tick);
            }
        }
    }
}

} // namespace dtrace::engine
