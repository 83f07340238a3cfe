// independent_walker.h: counts the events of a nettrace stream, without the reader.
//
// The tests check the reader's event count against this walker, written
// separately from it (from NetTraceFormat.md and etw-formats.md 4.1/4.2, not
// from the reader's code): it steps over the objects or blocks by their
// sizes and counts, in each event block, the rows (compressed or not) that
// name a metadata id other than 0. It does no sorting, no metadata parsing
// and no error recovery: on anything unexpected it reports failure.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace dtrace::etw::nettrace::test {

struct WalkCounts {
    uint64_t events = 0;
    uint64_t metadata_rows = 0;
    uint64_t event_blocks = 0;
    uint64_t stack_blocks = 0;
    uint64_t sequence_points = 0;
};

std::optional<WalkCounts> walk_nettrace(std::span<const uint8_t> stream);

} // namespace dtrace::etw::nettrace::test
