// event_header_record.cpp: the extended data items of EVENT_HEADER records (see event_header_record.h).
#include "reader/event_header_record.h"

#include "reader/le_bytes.h"

namespace dtrace::etw {

namespace {

constexpr unsigned kTypeBits = 32; // Event::extended_types has one bit per type below this

} // namespace

size_t walk_extended_items(std::span<const uint8_t> record, Event &out) {
    namespace L = extended_item_layout;
    size_t at = event_header_layout::kHeaderSize;
    uint32_t types = 0;
    for (;;) {
        if (record.size() - at < L::kHeaderSize) {
            return 0;
        }
        const uint8_t *item = record.data() + at;
        uint16_t size = load_u16(item + L::kSize);
        uint16_t type = load_u16(item + L::kType);
        uint16_t linkage = load_u16(item + L::kLinkage);
        uint16_t data_size = load_u16(item + L::kDataSize);
        if (size < L::kHeaderSize + data_size || size > record.size() - at) {
            return 0;
        }
        if (type < kTypeBits) {
            types |= 1u << type;
        }
        at += size;
        if ((linkage & L::kLinkageMore) == 0) {
            break;
        }
    }
    out.extended = record.subspan(event_header_layout::kHeaderSize, at - event_header_layout::kHeaderSize);
    out.extended_types = types;
    return at;
}

} // namespace dtrace::etw
