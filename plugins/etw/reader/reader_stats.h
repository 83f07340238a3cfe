// reader_stats.h: what the reader saw besides the events it delivered.
//
// Damage does not stop a replay: a corrupt buffer is skipped and reading goes
// on. The caller (the etw plugin: diag:::events counts, the corrupt-buffer
// count, diag:::lostevent) needs the tallies, and the user needs to know where
// the damage is, so each problem is kept with its file offset and a message
// that names the file (the first kMaxProblems of them; the counters go on).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "reader/event.h"

namespace dtrace::etw {

struct Problem {
    uint64_t file_offset = 0;
    std::string message; // "<file>: buffer at offset 0x...: ..."
};

struct ReaderStats {
    static constexpr size_t kMaxProblems = 100;

    std::array<uint64_t, kRecordKindCount> records{}; // delivered, by RecordKind
    uint64_t events = 0;                              // delivered, all kinds
    uint64_t skipped_records = 0;                     // WNODE, error and timed records (no events)
    uint64_t buffers = 0;                             // buffers loaded
    uint64_t compressed_buffers = 0;
    uint64_t corrupt_buffers = 0;     // buffers skipped whole or from a damaged record on
    uint64_t events_lost_buffers = 0; // buffers flagged EVENTS_LOST by the logger
    uint64_t lost_buffers = 0;        // buffers flagged BUFFER_LOST by the logger
    uint64_t lost_event_records = 0;  // RT_LostEvent records delivered
    uint64_t out_of_order_events = 0; // delivered earlier than the event before them
    uint64_t problem_count = 0;       // all problems, including those not kept
    std::vector<Problem> problems;    // the first kMaxProblems

    uint64_t records_of(RecordKind kind) const { return records[static_cast<size_t>(kind)]; }
};

} // namespace dtrace::etw
