// time_units.h: the time units DTrace accepts after a number, in one table.
//
// Rates of options (-x switchrate=10hz) and the profile provider's probe
// names (tick-5ms, profile-997) share D's unit words: ns nsec us usec ms msec
// s sec m min h hour d day, and hz for a frequency. Only what a bare number
// means differs (nanoseconds for options, hertz for probe names), so the
// caller says that.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <strings.h>

namespace dtrace::common {

inline constexpr int64_t kNanosPerSecond = 1'000'000'000;
inline constexpr int64_t kHertz = 0; // the number is a frequency, not a period

// Nanoseconds per unit for `suffix` (case-insensitive), kHertz for "hz",
// `bare` for an empty suffix; nullopt for an unknown unit.
inline std::optional<int64_t> nanos_per_unit(std::string_view suffix, int64_t bare) {
    struct Unit {
        std::string_view name;
        int64_t nanos;
    };
    static constexpr Unit kUnits[] = {
        {"ns", 1},
        {"nsec", 1},
        {"us", 1000},
        {"usec", 1000},
        {"ms", 1000000},
        {"msec", 1000000},
        {"s", kNanosPerSecond},
        {"sec", kNanosPerSecond},
        {"m", 60 * kNanosPerSecond},
        {"min", 60 * kNanosPerSecond},
        {"h", 3600 * kNanosPerSecond},
        {"hour", 3600 * kNanosPerSecond},
        {"d", 86400 * kNanosPerSecond},
        {"day", 86400 * kNanosPerSecond},
        {"hz", kHertz},
    };
    if (suffix.empty())
        return bare;
    for (const Unit &u : kUnits) {
        if (u.name.size() == suffix.size() && strncasecmp(u.name.data(), suffix.data(), suffix.size()) == 0)
            return u.nanos;
    }
    return std::nullopt;
}

// The interval in nanoseconds of `value` in a unit of nanos_per_unit();
// nullopt on overflow or a zero frequency.
inline std::optional<int64_t> interval_nanos(int64_t value, int64_t unit_nanos) {
    if (unit_nanos == kHertz)
        return value == 0 ? std::nullopt : std::optional<int64_t>(kNanosPerSecond / value);
    if (unit_nanos != 0 && value > INT64_MAX / unit_nanos)
        return std::nullopt;
    return value * unit_nanos;
}

} // namespace dtrace::common
