// trace_clock.h: raw event timestamps to nanoseconds since the Unix epoch.
//
// Events carry raw timestamps in the session's clock (logfile header
// ClockType): QPC ticks (the usual case, PerfFreq per second), FILETIME (100
// ns since 1601) or CPU cycles (CpuSpeedInMHz per microsecond). Wall time is
// anchored where Windows' own consumer anchors it: StartTime is the wall time
// of the header record's timestamp (etw-formats.md 1.7). The conversion runs
// once per event, so the common frequencies that divide 1e9 take one
// multiply; others use 128-bit arithmetic.
#pragma once

#include <cstdint>

#include "reader/logfile_header.h"
#include "reader/result.h"

namespace dtrace::etw {

// 100 ns intervals between 1601-01-01 (FILETIME) and 1970-01-01.
inline constexpr int64_t kFiletimeUnixEpoch = 116444736000000000LL;
inline constexpr int64_t kNanosPerFiletimeTick = 100;
inline constexpr int64_t kNanosPerSecond = 1000000000LL;
inline constexpr int64_t kHzPerMHz = 1000000LL;

class TraceClock {
  public:
    // Fails when the header names a clock it cannot convert (no frequency).
    static Result<TraceClock> from_header(const LogfileHeader &header);

    // Inline for the common clocks (1e9 a multiple of the frequency: QPC at
    // 10 MHz, ...): it runs for every event.
    int64_t to_unix_ns(int64_t raw) const {
        if (ns_per_tick_ == 0) {
            return to_unix_ns_exactly(raw);
        }
        const uint64_t delta = static_cast<uint64_t>(raw) - static_cast<uint64_t>(raw_base_);
        return static_cast<int64_t>(static_cast<uint64_t>(start_ns_) + delta * static_cast<uint64_t>(ns_per_tick_));
    }
    // Nanoseconds since the header record (the trace's start).
    int64_t since_start_ns(int64_t raw) const { return to_unix_ns(raw) - start_ns_; }
    // True for the raw timestamp of the header record: the session's start,
    // which the header and its extension records carry. A session that kept
    // its events in memory (boot-time loggers flushed at shutdown) starts
    // hours before the events its file holds.
    bool is_session_start(int64_t raw) const { return raw == raw_base_; }
    // FILETIME to nanoseconds since the Unix epoch.
    static int64_t filetime_to_unix_ns(int64_t filetime);

    // The raw timestamp of the header record and its wall time (ns since the epoch).
    int64_t raw_base() const { return raw_base_; }
    int64_t start_ns() const { return start_ns_; }
    // True when raw timestamps of other read as this clock's do: the same
    // kind and frequency, and the two anchors agree within tolerance_ns (two
    // files of one machine's QPC counter).
    bool shares_counter_with(const TraceClock &other, int64_t tolerance_ns) const {
        const int64_t gap = to_unix_ns(other.raw_base_) - other.start_ns_;
        return raw_is_filetime_ == other.raw_is_filetime_ && frequency_ == other.frequency_ && gap < tolerance_ns &&
               gap > -tolerance_ns;
    }

  private:
    // FILETIME clocks and frequencies that do not divide 1e9.
    int64_t to_unix_ns_exactly(int64_t raw) const;

    bool raw_is_filetime_ = false;
    int64_t raw_base_ = 0;    // raw timestamp of the header record
    int64_t start_ns_ = 0;    // its wall time
    int64_t frequency_ = 0;   // raw ticks per second
    int64_t ns_per_tick_ = 0; // 1e9 / frequency when exact, else 0
};

} // namespace dtrace::etw
