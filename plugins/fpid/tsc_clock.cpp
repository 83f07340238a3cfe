// tsc_clock.cpp: counter ticks to monotonic nanoseconds.
#include "tsc_clock.h"

#include <ctime>
#include <x86intrin.h>

namespace dtrace::fpid {

namespace {

uint64_t monotonic_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(ts.tv_nsec);
}

} // namespace

TscClock::TscClock() {
    ns0_ = monotonic_ns();
    tsc0_ = __rdtsc();
    const uint64_t until = ns0_ + 2'000'000;
    while (monotonic_ns() < until) {
    }
    refresh();
}

void TscClock::refresh() {
    const uint64_t ns = monotonic_ns();
    const uint64_t tsc = __rdtsc();
    if (tsc > tsc0_)
        ns_per_tick_ = static_cast<double>(ns - ns0_) / static_cast<double>(tsc - tsc0_);
}

uint64_t TscClock::now() const {
    return monotonic_ns();
}

uint64_t TscClock::nanoseconds(uint64_t tsc) const {
    const double delta = static_cast<double>(static_cast<int64_t>(tsc - tsc0_)) * ns_per_tick_;
    return ns0_ + static_cast<uint64_t>(static_cast<int64_t>(delta));
}

} // namespace dtrace::fpid
