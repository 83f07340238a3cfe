// destructive.cpp: raise(), stop() and chill() (see destructive.h).
#include "engine/destructive.h"

#include <chrono>
#include <csignal>
#include <unistd.h>

namespace dtrace::engine {

namespace {

constexpr uint64_t kChillInterval = 1'000'000'000; // ns
constexpr uint64_t kChillMax = 500'000'000;        // ns chilled per interval, as DTrace

uint64_t now_ns() {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

bool live_process(const dtrace_event_ctx &ctx) {
    return (ctx.flags & DTRACE_EVENT_REPLAYED) == 0 && ctx.pid > 0;
}

} // namespace

dif::FaultKind raise_signal(const dtrace_event_ctx &ctx, uint64_t signal) {
    if (signal >= static_cast<uint64_t>(NSIG))
        return dif::FaultKind::IllOp;
    if (signal != 0 && live_process(ctx))
        kill(static_cast<pid_t>(ctx.pid), static_cast<int>(signal));
    return dif::FaultKind::None;
}

void stop_process(const dtrace_event_ctx &ctx) {
    if (live_process(ctx) && ctx.pid != getpid())
        kill(static_cast<pid_t>(ctx.pid), SIGSTOP);
}

dif::FaultKind Chill::spin(uint64_t nanoseconds) {
    const uint64_t start = now_ns();
    if (start - window_start_ > kChillInterval) {
        window_start_ = start;
        chilled_ = 0;
    }
    if (nanoseconds > kChillMax || chilled_ + nanoseconds > kChillMax)
        return dif::FaultKind::IllOp;
    while (now_ns() - start < nanoseconds) {
    }
    chilled_ += nanoseconds;
    return dif::FaultKind::None;
}

} // namespace dtrace::engine
