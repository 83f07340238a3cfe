// record_cursor.h: stepping through the records of one loaded buffer.
//
// Records start after the buffer header, are 8-byte aligned and end at the
// buffer's Offset or at an end marker (0xFFFFFFFF or 0). Stepping is split
// from parsing: the merge needs each CPU's next timestamp before it knows
// which record to deliver, so next() validates a record's framing (marker,
// size, room for the fixed header) and reads only its timestamp; parse()
// then fills an Event for the one record delivered. Framing damage ends the
// buffer, since nothing else says where the next record starts.
#pragma once

#include <cstdint>
#include <span>

#include "reader/event.h"
#include "reader/record_fault.h"
#include "reader/record_shape.h"

namespace dtrace::etw {

struct RecordHead {
    RecordShape shape;
    uint32_t at = 0;   // offset in the buffer
    uint32_t size = 0; // the record's own size (unaligned)
    int64_t timestamp = 0;
};

class RecordCursor {
  public:
    enum class Step : uint8_t { Record, End, Fault };

    // Starts on the records of data (the buffer from its header to Offset).
    void reset(std::span<const uint8_t> data);

    // Moves to the next record with an event, counting skipped records.
    // untimed_timestamp dates WPP messages that carry no timestamp.
    Step next(RecordHead &head, int64_t untimed_timestamp, uint64_t &skipped, RecordFault &fault);
    // Where the cursor stopped (the faulty record's offset after a Fault).
    uint32_t position() const { return pos_; }

    // Fills out from a record next() returned (cpu, time_ns and the buffer's
    // location are the caller's to fill).
    RecordFault parse(const RecordHead &head, uint8_t default_pointer_size, Event &out) const;

  private:
    std::span<const uint8_t> data_;
    uint32_t pos_ = 0;
};

} // namespace dtrace::etw
