// event_rows.h: the event rows of an EventBlock (or a V4/V5 MetadataBlock).
//
// A block starts with a header (u16 size, u16 flags, min and max timestamp);
// flag 1 means the rows use header compression: a flags byte says which
// header fields follow (as LEB128 varuints, some as deltas from the row
// before), the others repeat the previous row's; the first row of a block
// starts from zeros. Uncompressed rows spell every field out (V4/V5 pad
// each row to 4 bytes). V6 rows name a label list where V4/V5 carry the
// activity ids, and always count the sequence number up.
// (NetTraceFormat.md, etw-formats.md 4.1/4.2.)
//
// Rows are decoded in place: EventRow's payload points into the block, and
// the row itself is the reader's (header compression's "previous row"), so
// that no row is copied.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "nettrace/byte_cursor.h"
#include "reader/guid.h"

namespace dtrace::etw::nettrace {

struct EventRow {
    uint32_t metadata_id = 0;
    bool sorted = false; // every later row of the stream is at least as late
    uint32_t sequence = 0;
    uint64_t thread = 0;         // V4/V5: the OS thread id; V6: a thread index
    uint64_t capture_thread = 0; // likewise
    uint32_t processor = 0;
    uint32_t stack_id = 0;
    int64_t timestamp = 0;
    Guid activity;
    Guid related_activity;
    uint32_t label_list = 0; // V6
    std::span<const uint8_t> payload;
    uint32_t offset = 0; // of the row in its block
};

class EventRows {
  public:
    EventRows(std::span<const uint8_t> block, uint32_t format_version);

    enum class Step { Row, End, Damaged };
    // The next row, then in row() until the next call; after Damaged,
    // damage() says what and damage_offset() where (in the block): the rest
    // of the block is not read.
    Step next() {
        if (!damage_.empty()) {
            return Step::Damaged;
        }
        if (c_.at_end()) {
            return Step::End;
        }
        row_.offset = static_cast<uint32_t>(c_.offset());
        const bool read = compressed_ ? read_compressed() : read_uncompressed();
        return read ? Step::Row : Step::Damaged;
    }
    const EventRow &row() const { return row_; }
    const std::string &damage() const { return damage_; }
    uint32_t damage_offset() const { return damage_offset_; }
    int64_t min_timestamp() const { return min_timestamp_; }
    int64_t max_timestamp() const { return max_timestamp_; }

  private:
    bool read_compressed();
    bool read_uncompressed();
    bool fail(uint32_t at, std::string what);

    ByteCursor c_;
    bool v6_ = false;
    bool compressed_ = false;
    int64_t min_timestamp_ = 0;
    int64_t max_timestamp_ = 0;
    EventRow row_; // also header compression's "previous row"
    uint32_t previous_payload_size_ = 0;
    std::string damage_;
    uint32_t damage_offset_ = 0;
};

} // namespace dtrace::etw::nettrace
