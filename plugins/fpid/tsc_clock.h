// tsc_clock.h: the agent's time stamps (the CPU's time stamp counter, read
// in the traced thread because it costs a few ns where clock_gettime costs
// tens) as CLOCK_MONOTONIC nanoseconds, which dtrace's timestamps are.
//
// The counter is constant-rate and shared by every CPU (constant_tsc,
// nonstop_tsc); its rate is measured against CLOCK_MONOTONIC from pairs of
// readings: one when the clock is made, one after a short wait, and the
// latest, taken at each drain pass (the longer the span, the better).
#pragma once

#include <cstdint>

namespace dtrace::fpid {

class TscClock {
  public:
    TscClock(); // calibrates over ~2 ms
    // Takes a new reading pair (refines the rate).
    void refresh();
    uint64_t nanoseconds(uint64_t tsc) const;
    uint64_t now() const; // CLOCK_MONOTONIC, for hits recorded without a time stamp

  private:
    uint64_t tsc0_ = 0, ns0_ = 0;
    double ns_per_tick_ = 1.0;
};

} // namespace dtrace::fpid
