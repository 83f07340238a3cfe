// replay_progress.h: the progress line of a long replay (-E), on stderr.
//
// A replaying plugin reports how far through its file it is
// (dtrace_host_ops::report_progress). On a terminal, and never with -q, dtrace
// shows "dtrace: replaying 42% (1234567 events, 345678 events/s)" on one line
// it rewrites at most ten times a second and erases when the replay ends, as
// tracing tools do; -x progress shows it when stderr is not a terminal too
// (one line per update then, since \r does not rewrite a file).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>

namespace dtrace::session {

class ReplayProgress {
  public:
    // `enabled` false: every call does nothing. `rewrite`: stderr is a terminal.
    ReplayProgress(FILE *err, bool enabled, bool rewrite) : err_(err), enabled_(enabled), rewrite_(rewrite) {}
    ~ReplayProgress() { finish(); }
    ReplayProgress(const ReplayProgress &) = delete;
    ReplayProgress &operator=(const ReplayProgress &) = delete;

    // From the plugin's replay thread.
    void update(uint64_t done, uint64_t total, uint64_t events);
    // Erases the line (on a terminal); later updates are ignored.
    void finish();

  private:
    using Clock = std::chrono::steady_clock;
    FILE *err_;
    bool enabled_;
    bool rewrite_;
    std::mutex mutex_;
    bool shown_ = false;
    bool finished_ = false;
    Clock::time_point start_ = Clock::now();
    Clock::time_point last_{};
};

} // namespace dtrace::session
