// resource_sizing.cpp: size options against the machine (see resource_sizing.h).
#include "engine/resource_sizing.h"

#include "engine/buffer_policy.h"

#include <climits>
#include <fstream>
#include <string_view>
#include <unistd.h>

namespace dtrace::engine {

namespace {

constexpr std::string_view kNoMemory = "Not enough space"; // ENOMEM, as illumos words it
constexpr uint64_t kSmallestSize = sizeof(uint64_t);
constexpr uint64_t kKilo = 1024;

// Bytes one speculation's bookkeeping takes before it holds any record.
constexpr uint64_t kSpeculationCost = 64;

// A size option and what one byte of it costs in all.
struct SizedOption {
    const char *option;
    const char *what; // as dtrace(1) names it in "... lowered to"
    uint64_t copies;  // how many buffers of that size there may be
};

uint64_t saturating_mul(uint64_t a, uint64_t b) {
    return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

// DTrace's dtrace_state_buffer(): the size, else halves of it, aligned down
// to 8 bytes, that fit what is left of `budget`.
std::optional<uint64_t> fitting_size(uint64_t size, uint64_t copies, uint64_t budget, bool auto_resize) {
    for (; size >= kSmallestSize; size >>= 1) {
        size &= ~(kSmallestSize - 1);
        if (saturating_mul(size, copies) <= budget)
            return size;
        if (!auto_resize)
            return std::nullopt;
    }
    return std::nullopt;
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
    sized.push_back({"dynvarsize", "dynamic variable size", 1});
    for (const SizedOption &s : sized) {
        const uint64_t wanted = static_cast<uint64_t>(options.number(s.option));
        if (wanted == 0)
            continue;
        std::optional<uint64_t> size = fitting_size(wanted, s.copies, budget, auto_resize);
        if (!size) {
            out.refusal = std::string(kNoMemory);
            return out;
        }
        budget -= *size * s.copies;
        // dtrace(1) says nothing of a size cut only to its 8-byte alignment.
        if (*size + kSmallestSize >= wanted)
            continue;
        options.set(s.option, std::to_string(*size));
        out.notices.push_back(std::string(s.what) + " lowered to " + size_text(*size));
    }
    return out;
}

} // namespace dtrace::engine
