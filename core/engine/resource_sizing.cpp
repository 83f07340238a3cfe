// resource_sizing.cpp: size options against the machine (see resource_sizing.h).
#include "engine/resource_sizing.h"

#include "engine/buffer_policy.h"

#include <algorithm>
#include <climits>
#include <fstream>
#include <string_view>
#include <unistd.h>

namespace dtrace::engine {

namespace {

// DTrace's refusals: ENOMEM as illumos words it, and E2BIG (EDT_ENDTOOBIG).
constexpr std::string_view kNoMemory = "Not enough space";
constexpr std::string_view kEndTooBig = "END enablings exceed size of principal buffer";
constexpr uint64_t kSmallestSize = sizeof(uint64_t);
constexpr uint64_t kKilo = 1024;

// Bytes one speculation's bookkeeping takes before it holds any record.
constexpr uint64_t kSpeculationCost = 64;

// A size option and what one byte of it costs in all.
struct SizedOption {
    const char *option;
    const char *what; // as dtrace(1) names it in "... lowered to"
    uint64_t copies;  // how many buffers of that size there may be
    bool dynamic_variables = false;
};

uint64_t saturating_mul(uint64_t a, uint64_t b) {
    return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

// What sizing one option came to: a size, or DTrace's reason for none.
struct Fitted {
    uint64_t size = 0;
    std::string_view refusal; // empty: `size` fits
};

// How many of `copies` buffers of `size` bytes `budget` holds before it runs out.
uint64_t buffers_taken(uint64_t size, uint64_t copies, uint64_t budget) {
    return std::min(copies, budget / size);
}

// DTrace's dtrace_state_buffer(): the size, aligned down to 8 bytes, if its
// buffers can all be had. Otherwise, with bufresize=auto, the size is
// divided by the smallest power of two (2 at least) not below how many
// times more buffers were wanted than could be had, and tried again. A
// size below the room a fill buffer keeps for END is refused as such (E2BIG).
Fitted fitting_size(uint64_t size, uint64_t copies, uint64_t budget, bool auto_resize, uint64_t reserve) {
    uint64_t divisor = 1;
    for (; size >= kSmallestSize; size /= divisor) {
        size &= ~(kSmallestSize - 1);
        if (size < reserve)
            return {0, kEndTooBig};
        const uint64_t taken = buffers_taken(size, copies, budget);
        if (taken == copies)
            return {size, {}};
        if (!auto_resize)
            return {0, kNoMemory};
        const uint64_t factor = copies / std::max<uint64_t>(taken, 1);
        for (divisor = 2; divisor < factor; divisor <<= 1) {
        }
    }
    return {0, kNoMemory};
}

// dtrace_state_go()'s bounds on the rates it runs timers at, and dtrace(1)'s
// notice of a rate it changed ("status rate increased to once every 10 seconds").
constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kStatusRateSlowest = 10 * kNanosPerSecond;
constexpr int64_t kCleanRateFastest = kNanosPerSecond / 5000;
constexpr int64_t kCleanRateSlowest = 60 * kNanosPerSecond;

std::string rate_notice(const char *what, int64_t given, int64_t now) {
    const std::string change = std::string(what) + (now > given ? " reduced to " : " increased to ");
    if (now <= kNanosPerSecond && kNanosPerSecond % now == 0)
        return change + std::to_string(kNanosPerSecond / now) + " hz";
    if (now % kNanosPerSecond == 0)
        return change + "once every " + std::to_string(now / kNanosPerSecond) + " seconds";
    return change + "once every " + std::to_string(now) + " nanoseconds";
}

void bound_rates(Options &options, std::vector<std::string> &notices) {
    struct Bounded {
        const char *option;
        const char *what;
        int64_t fastest;
        int64_t slowest;
        int64_t when_zero;
    };
    // dtrace(1) reports the cleaning rate before the status rate.
    static const Bounded kRates[] = {
        {"cleanrate", "cleaning rate", kCleanRateFastest, kCleanRateSlowest, kCleanRateSlowest},
        {"statusrate", "status rate", 0, kStatusRateSlowest, 0},
    };
    for (const Bounded &r : kRates) {
        const int64_t given = options.number(r.option);
        int64_t now = given == 0 ? r.when_zero : given;
        now = std::clamp(now, r.fastest, r.slowest);
        if (now == given || now == 0)
            continue;
        options.set(r.option, std::to_string(now) + "ns");
        notices.push_back(rate_notice(r.what, given, now));
    }
}

} // namespace

uint32_t online_cpus() {
    long n = sysconf(_SC_NPROCESSORS_CONF);
    return n > 0 ? static_cast<uint32_t>(n) : 1;
}

uint64_t available_memory() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    uint64_t kilobytes = 0;
    std::string unit;
    while (meminfo >> key >> kilobytes >> unit) {
        if (key == "MemAvailable:")
            return kilobytes * kKilo;
    }
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : UINT64_MAX;
}

std::string size_text(uint64_t bytes) {
    static const char kUnits[] = " kmgtpe";
    unsigned unit = 0, shift = 10;
    for (; shift < 64 && (uint64_t(1) << shift) <= bytes; unit++, shift += 10) {
    }
    const unsigned whole = shift - 10;
    if ((bytes & ((uint64_t(1) << whole) - 1)) == 0)
        return std::to_string(bytes >> whole) + kUnits[unit];
    return std::to_string(bytes) + " bytes";
}

SizingOutcome size_for_machine(Options &options, const ResourceNeeds &needs, uint64_t available) {
    SizingOutcome out;
    const uint64_t nspec = static_cast<uint64_t>(options.number("nspec"));
    if (nspec > INT_MAX || saturating_mul(nspec, kSpeculationCost) > available) {
        out.refusal = std::string(kNoMemory);
        return out;
    }
    uint64_t budget = available - nspec * kSpeculationCost;
    const std::string *policy = options.text("bufpolicy");
    const bool ring = policy && parse_buffer_policy(*policy) == BufferPolicy::Ring;
    const std::string *resize = options.text("bufresize");
    const bool auto_resize = !resize || *resize != "manual";
    // The consumer takes a copy of each buffer's records at a switch.
    const uint64_t principal_copies = uint64_t(needs.cpus) * ((ring ? 3 : 1) + 1);
    std::vector<SizedOption> sized = {{"bufsize", "buffer size", principal_copies}};
    if (needs.aggregates)
        sized.push_back({"aggsize", "aggregation size", 2}); // the table and its snapshot
    if (needs.speculates)
        sized.push_back({"specsize", "speculation size", saturating_mul(nspec, needs.cpus)});
    sized.push_back({"dynvarsize", "dynamic variable size", 1, true});
    for (const SizedOption &s : sized) {
        const uint64_t wanted = static_cast<uint64_t>(options.number(s.option));
        if (wanted == 0)
            continue;
        // The END reserve binds the kernel's buffers, not the dynamic variables.
        const uint64_t reserve = s.dynamic_variables ? 0 : needs.end_reserve;
        const Fitted fitted = fitting_size(wanted, s.copies, budget, auto_resize, reserve);
        if (!fitted.refusal.empty()) {
            out.refusal = std::string(fitted.refusal);
            return out;
        }
        budget -= fitted.size * s.copies;
        // dtrace(1) says nothing of a size cut only to its 8-byte alignment.
        if (fitted.size + kSmallestSize >= wanted)
            continue;
        options.set(s.option, std::to_string(fitted.size));
        out.notices.push_back(std::string(s.what) + " lowered to " + size_text(fitted.size));
    }
    bound_rates(options, out.notices);
    return out;
}

} // namespace dtrace::engine
