// trace_clock.cpp: timestamp conversion (see trace_clock.h).
#include "reader/trace_clock.h"

#include <string>

namespace dtrace::etw {

namespace {
// Wrapping arithmetic: garbage timestamps give garbage times, never UB.
int64_t wrap_add(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrap_sub(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
int64_t wrap_mul(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
} // namespace

int64_t TraceClock::filetime_to_unix_ns(int64_t filetime) {
    return wrap_mul(wrap_sub(filetime, kFiletimeUnixEpoch), kNanosPerFiletimeTick);
}

Result<TraceClock> TraceClock::from_header(const LogfileHeader &header) {
    TraceClock clock;
    clock.raw_base_ = header.header_timestamp;
    clock.start_ns_ = filetime_to_unix_ns(header.start_time);
    switch (header.clock_type) {
    case clock_type::kSystemTime:
        clock.raw_is_filetime_ = true;
        return clock;
    case clock_type::kCpuCycles:
        clock.frequency_ = static_cast<int64_t>(header.cpu_speed_mhz) * kHzPerMHz;
        break;
    case clock_type::kRaw: // Windows treats raw as QPC
    case clock_type::kQpc:
    default:
        clock.frequency_ = header.perf_freq;
        break;
    }
    if (clock.frequency_ <= 0) {
        return Error{"the logfile header gives no clock frequency (clock type " + std::to_string(header.clock_type) +
                     ", PerfFreq " + std::to_string(header.perf_freq) + ", CpuSpeedInMHz " +
                     std::to_string(header.cpu_speed_mhz) + ")"};
    }
    if (kNanosPerSecond % clock.frequency_ == 0) {
        clock.ns_per_tick_ = kNanosPerSecond / clock.frequency_;
    }
    return clock;
}

int64_t TraceClock::to_unix_ns_exactly(int64_t raw) const {
    if (raw_is_filetime_) {
        return filetime_to_unix_ns(raw);
    }
    int64_t delta = wrap_sub(raw, raw_base_);
    __int128 ns = static_cast<__int128>(delta) * kNanosPerSecond / frequency_;
    return wrap_add(start_ns_, static_cast<int64_t>(ns));
}

} // namespace dtrace::etw
