// record_cursor.cpp: record framing, every case (see record_cursor.h).
#include "reader/record_cursor.h"

namespace dtrace::etw {

void reset_event(Event &out) {
    static constexpr Event kBlank{};
    out = kBlank; // copying a constant is cheaper than building a temporary
}

void RecordCursor::reset(std::span<const uint8_t> data) {
    data_ = data;
    pos_ = buffer_layout::kSize;
}

RecordCursor::Step RecordCursor::next(RecordHead &head, int64_t untimed_timestamp, uint64_t &skipped,
                                      RecordFault &fault) {
    const size_t end = data_.size();
    while (end - pos_ >= kMarkerSize) {
        const uint8_t *p = data_.data() + pos_;
        uint32_t m = load_u32(p);
        if (m == marker::kEndOfData || m == marker::kEmpty) {
            return Step::End;
        }
        const RecordShape &shape = classify_marker(m);
        if (shape.use == RecordShape::Use::Corrupt) {
            fault = RecordFault::UnknownHeader;
            return Step::Fault;
        }
        if (end - pos_ < shape.header_size) {
            fault = RecordFault::SizePastEnd;
            return Step::Fault;
        }
        uint32_t size = load_u16(p + shape.size_offset);
        if (size < shape.header_size) {
            fault = RecordFault::SizeTooSmall;
            return Step::Fault;
        }
        if (size > end - pos_) {
            fault = RecordFault::SizePastEnd;
            return Step::Fault;
        }
        const uint32_t following = static_cast<uint32_t>(std::min<uint64_t>(align8(uint64_t{pos_} + size), end));
        if (shape.use == RecordShape::Use::Skip) {
            ++skipped;
            pos_ = following;
            continue;
        }
        int64_t timestamp;
        if (shape.kind == RecordKind::Message) {
            MessageFields fields = message_fields(load_u16(p + message_layout::kOptionFlags));
            if (size < fields.end) {
                fault = RecordFault::MessageFieldsPastEnd;
                return Step::Fault;
            }
            timestamp = fields.timestamp ? load_i64(p + fields.timestamp) : untimed_timestamp;
        } else {
            timestamp = load_i64(p + shape.timestamp_offset);
        }
        head.shape = &shape;
        head.at = pos_;
        head.size = size;
        head.timestamp = timestamp;
        pos_ = following;
        return Step::Record;
    }
    return Step::End;
}

} // namespace dtrace::etw
