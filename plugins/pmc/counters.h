// counters.h: the counters pmc probes name, as `perf list` spells them.
//
// A probe is pmc:::<counter>-<interval>: the perf generic software and
// hardware events and the generic cache events ("L1-dcache-load-misses"),
// or a raw PMU event "r<hex>" where the machine has a PMU, sampled every
// <interval> events (nanoseconds for the cpu-clock and task-clock timers).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::pmc {

struct Counter {
    std::string name;
    uint32_t type = 0; // PERF_TYPE_*
    uint64_t config = 0;
    uint64_t listed_interval = 0; // the interval of the probe -l lists
    bool hardware() const;
};

// Every named counter (not raw events), software first.
const std::vector<Counter> &known_counters();

// "page-faults-1" -> the counter and 1; nullopt when the name is no counter
// or the interval is 0 or not a number.
struct CounterProbe {
    Counter counter;
    uint64_t interval;
};
std::optional<CounterProbe> parse_probe_name(std::string_view name);

// Whether this machine can count `counter`; on failure `why` says why
// (a hardware counter without a PMU: "no PMU").
bool countable(const Counter &counter, std::string &why);

} // namespace dtrace::pmc
