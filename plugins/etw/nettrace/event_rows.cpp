// event_rows.cpp: event row headers, compressed and not (see event_rows.h).
#include "nettrace/event_rows.h"

namespace dtrace::etw::nettrace {

namespace {

constexpr uint16_t kBlockFlagCompressed = 1;
constexpr size_t kMinBlockHeaderSize = 20; // u16 size, u16 flags, i64 min, i64 max
constexpr uint32_t kSortedBit = 0x80000000u;
constexpr uint32_t kV6 = 6;

namespace compressed {
constexpr uint8_t kMetadataId = 1;
constexpr uint8_t kCaptureThreadAndSequence = 2;
constexpr uint8_t kThreadId = 4;
constexpr uint8_t kStackId = 8;
constexpr uint8_t kActivityId = 16; // V6: the label list id
constexpr uint8_t kRelatedActivityId = 32;
constexpr uint8_t kSorted = 64;
constexpr uint8_t kPayloadSize = 128;
} // namespace compressed

// The most bytes a compressed header's reads take: the flags, at most eight
// varuints of at most 10 bytes (a varuint32 too is read up to its 10th byte
// before it fails), two GUIDs.
constexpr size_t kMaxCompressedHeaderSize = 1 + 8 * 10 + 2 * 16;

// ByteCursor's reads of a header that lies within the block whatever its
// fields hold (kMaxCompressedHeaderSize bytes remain, as for most rows of a
// block): the same values and failures, without a bounds check a byte.
class UncheckedCursor {
  public:
    explicit UncheckedCursor(const uint8_t *at) : at_(at) {}
    bool ok() const { return ok_; }
    const uint8_t *at() const { return at_; }
    uint8_t u8() { return *at_++; }
    Guid guid() {
        at_ += Guid::kSize;
        return Guid::from_bytes(at_ - Guid::kSize);
    }
    uint64_t varuint() {
        uint64_t value = *at_++;
        if (value < 0x80) { // most are one byte
            return value;
        }
        value &= 0x7F;
        for (unsigned shift = 7; shift < 64; shift += 7) {
            const uint8_t b = *at_++;
            value |= static_cast<uint64_t>(b & 0x7F) << shift;
            if (b < 0x80) {
                return value;
            }
        }
        ok_ = false;
        return 0;
    }
    uint32_t varuint32() {
        const uint64_t value = varuint();
        if (value > UINT32_MAX) {
            ok_ = false;
        }
        return static_cast<uint32_t>(value);
    }

  private:
    const uint8_t *at_;
    bool ok_ = true;
};

} // namespace

EventRows::EventRows(std::span<const uint8_t> block, uint32_t format_version) : c_(block), v6_(format_version >= kV6) {
    const uint16_t header_size = c_.u16();
    const uint16_t flags = c_.u16();
    min_timestamp_ = c_.i64();
    max_timestamp_ = c_.i64();
    if (!c_.ok() || header_size < kMinBlockHeaderSize) {
        fail(0, "a block header of " + std::to_string(block.size()) + " bytes (header size " +
                    std::to_string(header_size) + ")");
        return;
    }
    c_.skip(header_size - kMinBlockHeaderSize);
    if (!c_.ok()) {
        fail(0, "a block header size of " + std::to_string(header_size) + " beyond the block");
    }
    compressed_ = (flags & kBlockFlagCompressed) != 0;
}

bool EventRows::fail(uint32_t at, std::string what) {
    damage_offset_ = at;
    damage_ = std::move(what);
    return false;
}

namespace {

// The fields of a compressed row header; p is the previous row, which the
// header changes into this one. Cursor: ByteCursor or UncheckedCursor.
template <typename Cursor> void read_compressed_header(Cursor &c, bool v6, EventRow &p, uint32_t &payload_size) {
    const uint8_t flags = c.u8();
    if (flags & compressed::kMetadataId) {
        p.metadata_id = c.varuint32();
    }
    if (flags & compressed::kCaptureThreadAndSequence) {
        p.sequence += c.varuint32();
        p.capture_thread = c.varuint();
        p.processor = c.varuint32();
    }
    if (v6 || p.metadata_id != 0) {
        ++p.sequence;
    }
    if (flags & compressed::kThreadId) {
        p.thread = c.varuint();
    }
    if (flags & compressed::kStackId) {
        p.stack_id = c.varuint32();
    }
    p.timestamp = static_cast<int64_t>(static_cast<uint64_t>(p.timestamp) + c.varuint());
    if (v6) {
        if (flags & compressed::kActivityId) {
            p.label_list = c.varuint32();
        }
    } else {
        if (flags & compressed::kActivityId) {
            p.activity = c.guid();
        }
        if (flags & compressed::kRelatedActivityId) {
            p.related_activity = c.guid();
        }
    }
    p.sorted = (flags & compressed::kSorted) != 0;
    if (flags & compressed::kPayloadSize) {
        payload_size = c.varuint32();
    }
}

} // namespace

bool EventRows::read_compressed() {
    EventRow &p = row_;
    // A local cursor stays in registers: stores to the row's u64 fields
    // could alias the member's offset and would reload it after each.
    ByteCursor c = c_;
    if (c.remaining() >= kMaxCompressedHeaderSize) {
        const std::span<const uint8_t> rest = c.rest();
        UncheckedCursor header(rest.data());
        read_compressed_header(header, v6_, p, previous_payload_size_);
        c.skip(static_cast<size_t>(header.at() - rest.data()));
        if (!header.ok()) {
            c.fail();
        }
    } else {
        read_compressed_header(c, v6_, p, previous_payload_size_);
    }
    p.payload = c.bytes(previous_payload_size_);
    c_ = c;
    if (!c_.ok()) {
        return fail(p.offset, "an event header or payload runs past the end of its block");
    }
    return true;
}

bool EventRows::read_uncompressed() {
    EventRow &row = row_;
    const uint32_t size = c_.u32();
    ByteCursor r(c_.bytes(size));
    if (!c_.ok()) {
        return fail(row.offset, "an event of " + std::to_string(size) + " bytes runs past the end of its block");
    }
    const uint32_t id = r.u32();
    row.metadata_id = id & ~kSortedBit;
    row.sorted = (id & kSortedBit) != 0;
    row.sequence = r.u32();
    row.thread = r.u64();
    row.capture_thread = r.u64();
    row.processor = r.u32();
    row.stack_id = r.u32();
    row.timestamp = r.i64();
    if (v6_) {
        row.label_list = r.u32();
    } else {
        row.activity = r.guid();
        row.related_activity = r.guid();
    }
    const uint32_t payload_size = r.u32();
    row.payload = r.bytes(payload_size);
    if (!r.ok()) {
        return fail(row.offset, "an event of " + std::to_string(size) + " bytes too short for its header and " +
                                    std::to_string(payload_size) + " bytes of payload");
    }
    if (!v6_) { // V4/V5 pad each row to 4 bytes (blocks start 4-aligned)
        c_.skip((4 - c_.offset() % 4) % 4);
        if (!c_.ok()) {
            c_ = ByteCursor(); // padding cut by the block's end: nothing follows
        }
    }
    return true;
}

} // namespace dtrace::etw::nettrace
