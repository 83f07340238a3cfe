// replay_progress.cpp: the throttled, self-erasing progress line.
#include "session/replay_progress.h"

namespace dtrace::session {

namespace {

constexpr auto kInterval = std::chrono::milliseconds(100); // at most ten updates a second
constexpr const char *kEraseLine = "\r\033[K";
constexpr uint64_t kPercent = 100;

} // namespace

void ReplayProgress::update(uint64_t done, uint64_t total, uint64_t events) {
    if (!enabled_ || total == 0)
        return;
    std::lock_guard guard(mutex_);
    const Clock::time_point now = Clock::now();
    if (finished_ || (shown_ && now - last_ < kInterval))
        return;
    last_ = now;
    shown_ = true;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const auto rate = seconds > 0 ? static_cast<unsigned long long>(double(events) / seconds) : 0ull;
    std::fprintf(err_, "%sdtrace: replaying %llu%% (%llu events, %llu events/s)%s", rewrite_ ? kEraseLine : "",
                 static_cast<unsigned long long>(done * kPercent / total), static_cast<unsigned long long>(events),
                 rate, rewrite_ ? "" : "\n");
    std::fflush(err_);
}

void ReplayProgress::finish() {
    std::lock_guard guard(mutex_);
    if (finished_)
        return;
    finished_ = true;
    if (shown_ && rewrite_) {
        std::fputs(kEraseLine, err_);
        std::fflush(err_);
    }
}

} // namespace dtrace::session
