// record_cursor.h: stepping through the records of one loaded buffer.
//
// Records start after the buffer header, are 8-byte aligned and end at the
// buffer's Offset or at an end marker (0xFFFFFFFF or 0). Stepping is split
// from parsing: the merge needs each CPU's next timestamp before it knows
// which record to deliver, so next() validates a record's framing (marker,
// size, room for the fixed header) and reads only its timestamp; parse()
// then fills an Event for the one record delivered. Framing damage ends the
// buffer, since nothing else says where the next record starts.
//
// Both run once per event, so the common case is inline: next_typed() steps
// over a well-formed typed-header record and parse() hands it to its family's
// parser; next() handles the rest (end markers, records without events, WPP
// messages, damage).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>

#include "reader/buffer_header.h"
#include "reader/classic_record.h"
#include "reader/event.h"
#include "reader/event_header_record.h"
#include "reader/le_bytes.h"
#include "reader/message_record.h"
#include "reader/record_fault.h"
#include "reader/record_shape.h"
#include "reader/system_record.h"

namespace dtrace::etw {

// What parse() starts from: every field a family does not fill gets its
// default. Out of line on purpose: inlined into the reader's loop, the
// compiler keeps parts of the constant in spilled registers, which costs more
// than the call.
void reset_event(Event &out);

struct RecordHead {
    const RecordShape *shape = &kCorruptShape; // one of record_shape.h's constants
    uint32_t at = 0;                           // offset in the buffer
    uint32_t size = 0;                         // the record's own size (unaligned)
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
    // The fast path of next(): true if the next record is a typed-header
    // record with an event and sound framing (then it is next()'s Record);
    // false, without moving, for anything else.
    bool next_typed(RecordHead &head);
    // Where the cursor stopped (the faulty record's offset after a Fault).
    uint32_t position() const { return pos_; }

    // Fills out from a record next() returned (cpu, time_ns and the buffer's
    // location are the caller's to fill).
    RecordFault parse(const RecordHead &head, uint8_t default_pointer_size, Event &out) const;

  private:
    std::span<const uint8_t> data_;
    uint32_t pos_ = 0;
};

inline bool RecordCursor::next_typed(RecordHead &head) {
    const size_t left = data_.size() - pos_;
    if (left < kMarkerSize) {
        return false;
    }
    const uint8_t *p = data_.data() + pos_;
    const uint32_t m = load_u32(p);
    const uint8_t flags = static_cast<uint8_t>(m >> marker::kFlagsShift);
    const uint8_t type = static_cast<uint8_t>((m >> marker::kTypeShift) & marker::kTypeMask);
    // The same test as classify_marker() for the typed headers; end markers
    // (0, 0xFFFFFFFF) and WPP messages fail it.
    if ((flags & marker::kTypedHeader) != marker::kTypedHeader || type >= kHeaderTypeCount) {
        return false;
    }
    const RecordShape &shape = kRecordShapes[type];
    if (shape.use != RecordShape::Use::Event || left < shape.header_size) {
        return false;
    }
    const uint32_t size = load_u16(p + shape.size_offset);
    if (size < shape.header_size || size > left) {
        return false;
    }
    head.shape = &shape;
    head.at = pos_;
    head.size = size;
    head.timestamp = load_i64(p + shape.timestamp_offset);
    pos_ = static_cast<uint32_t>(std::min<uint64_t>(align8(uint64_t{pos_} + size), data_.size()));
    return true;
}

inline RecordFault RecordCursor::parse(const RecordHead &head, uint8_t default_pointer_size, Event &out) const {
    reset_event(out);
    std::span<const uint8_t> record = data_.subspan(head.at, head.size);
    const RecordShape &shape = *head.shape;
    out.kind = shape.kind;
    out.header_type = record[kHeaderTypeByte];
    out.pointer_size = shape.pointer_size;
    out.timestamp = head.timestamp;
    out.record = record;
    out.record_offset = head.at;
    switch (shape.kind) {
    case RecordKind::System:
    case RecordKind::CompactSystem:
        return parse_system_record(record, shape, out);
    case RecordKind::PerfInfo:
        return parse_perfinfo_record(record, shape, out);
    case RecordKind::EventHeader:
        return parse_event_header_record(record, shape, out);
    case RecordKind::Classic:
    case RecordKind::Instance:
        return parse_classic_record(record, shape, out);
    case RecordKind::Message:
        return parse_message_record(record, default_pointer_size, out);
    }
    return RecordFault::UnknownHeader;
}

} // namespace dtrace::etw
