// resource_sizing.h: the memory a session's size options ask for, checked
// against the machine before tracing starts (DTrace's dtrace_state_go()
// and dtrace(1)'s "lowered" notices).
//
// Each size option becomes memory only as it is used (buffers are taken at
// their first record and never zero-filled; aggregations, dynamic variables
// and speculations grow as they fill), but the sizes are the limits dtrace
// honours, so what they may take in all must fit the machine:
//   nspec above INT_MAX, or more speculations than memory holds
//       "Not enough space" (DTrace never resizes nspec)
//   bufsize, aggsize, specsize, dynvarsize larger than memory allows
//       bufresize=auto: divided (to an 8-byte multiple) by a power of two
//       as large as the shortfall until it fits, as DTrace's allocation
//       does, and reported as "buffer size lowered to 2m" ...
//       bufresize=manual, or nothing of 8 bytes or more fits:
//       "Not enough space"
//   under bufpolicy=fill, bufsize, aggsize or specsize (as given or lowered)
//   smaller than the room kept for END's records
//       "END enablings exceed size of principal buffer"
//   cleanrate and statusrate outside the kernel's bounds (5000 hz to once a
//   minute; at most every 10 seconds) are brought within them and reported
//   as "status rate increased to once every 10 seconds"
// Budgets count what each option really costs here: a principal buffer per
// CPU (three times bufsize under the ring policy) plus the consumer's copy,
// a speculation buffer per speculation and CPU, an aggregation table plus
// the snapshot printing takes of it.
#pragma once

#include "engine/options.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dtrace::engine {

// What the enabled clauses need besides principal buffers
// (resource_needs() in enable_checks.h works it out from an engine).
struct ResourceNeeds {
    uint32_t cpus = 1;
    bool aggregates = false;
    bool speculates = false;
    uint64_t end_reserve = 0; // bufpolicy=fill: the bytes END's records may take
};

struct SizingOutcome {
    std::optional<std::string> refusal; // DTrace's reason tracing cannot start
    std::vector<std::string> notices;   // "buffer size lowered to 2m", in dtrace(1)'s order
};

uint32_t online_cpus();
// Memory the machine can give now (MemAvailable; the physical memory when
// /proc/meminfo does not say).
uint64_t available_memory();
// Lowers the size options in `options` that must shrink to fit `available` bytes.
SizingOutcome size_for_machine(Options &options, const ResourceNeeds &needs, uint64_t available);
// "2m", "512k", or "1000 bytes" when the size is not a whole number of a unit (dtrace(1)'s notation).
std::string size_text(uint64_t bytes);

} // namespace dtrace::engine
