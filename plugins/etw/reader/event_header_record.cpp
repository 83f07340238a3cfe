// event_header_record.cpp: EVENT_HEADER records (see event_header_record.h).
#include "reader/event_header_record.h"

#include "reader/le_bytes.h"

namespace dtrace::etw {

namespace {

constexpr unsigned kTypeBits = 32; // Event::extended_types has one bit per type below this

// Walks the item chain that starts at the end of the fixed header; on
// success sets extended/extended_types and returns where the user data starts.
bool walk_extended_items(std::span<const uint8_t> record, Event &out, size_t &user_data_at) {
    namespace L = extended_item_layout;
    size_t at = event_header_layout::kHeaderSize;
    uint32_t types = 0;
    for (;;) {
        if (record.size() - at < L::kHeaderSize) {
            return false;
        }
        const uint8_t *item = record.data() + at;
        uint16_t size = load_u16(item + L::kSize);
        uint16_t type = load_u16(item + L::kType);
        uint16_t linkage = load_u16(item + L::kLinkage);
        uint16_t data_size = load_u16(item + L::kDataSize);
        if (size < L::kHeaderSize + data_size || size > record.size() - at) {
            return false;
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
    user_data_at = at;
    return true;
}

} // namespace

RecordFault parse_event_header_record(std::span<const uint8_t> record, const RecordShape &shape, Event &out) {
    namespace L = event_header_layout;
    const uint8_t *p = record.data();
    uint16_t flags = load_u16(p + L::kFlags);
    out.flags = static_cast<uint16_t>((flags & ~(event_flag::k32BitHeader | event_flag::k64BitHeader)) |
                                      bitness_flag(shape.pointer_size));
    out.event_property = load_u16(p + L::kEventProperty);
    out.tid = load_u32(p + L::kThreadId);
    out.pid = load_u32(p + L::kProcessId);
    out.provider = Guid::from_bytes(p + L::kProviderId);
    out.id = load_u16(p + L::kId);
    out.version = p[L::kVersion];
    out.channel = p[L::kChannel];
    out.level = p[L::kLevel];
    out.opcode = p[L::kOpcode];
    out.task = load_u16(p + L::kTask);
    out.keyword = load_u64(p + L::kKeyword);
    out.kernel_time = load_u32(p + L::kKernelTime);
    out.user_time = load_u32(p + L::kUserTime);
    out.activity_id = Guid::from_bytes(p + L::kActivityId);

    size_t user_data_at = L::kHeaderSize;
    if ((flags & event_flag::kExtendedInfo) && !walk_extended_items(record, out, user_data_at)) {
        return RecordFault::BadExtendedItem;
    }
    out.payload = record.subspan(user_data_at);
    return RecordFault::None;
}

} // namespace dtrace::etw
