// event_header_record.h: EVENT_HEADER records (manifest, EventSource and
// TraceLogging events; everything logged through EventWrite).
//
// The header is fixed (0x50 bytes) and carries the full event descriptor. When
// Flags has EXTENDED_INFO, a chain of extended data items follows it (each
// item: u16 size, u16 type, u16 linkage with bit 0 = "another follows", u16
// data size, data padded to 8); the user data begins after the last item.
// Files do not set the 32/64-bit header flags; the bitness comes from the
// header type (0x12/0x13), and Event::flags gets the bit the way Windows'
// consumer API would set it. Layout: etw-formats.md 1.5 (evntcons.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "reader/event.h"
#include "reader/le_bytes.h"
#include "reader/record_fault.h"
#include "reader/record_shape.h"

namespace dtrace::etw {

namespace event_header_layout {
inline constexpr size_t kSize = 0x00;
inline constexpr size_t kFlags = 0x04;
inline constexpr size_t kEventProperty = 0x06;
inline constexpr size_t kThreadId = 0x08;
inline constexpr size_t kProcessId = 0x0C;
inline constexpr size_t kTimeStamp = 0x10;
inline constexpr size_t kProviderId = 0x18;
inline constexpr size_t kId = 0x28; // EVENT_DESCRIPTOR
inline constexpr size_t kVersion = 0x2A;
inline constexpr size_t kChannel = 0x2B;
inline constexpr size_t kLevel = 0x2C;
inline constexpr size_t kOpcode = 0x2D;
inline constexpr size_t kTask = 0x2E;
inline constexpr size_t kKeyword = 0x30;
inline constexpr size_t kKernelTime = 0x38;
inline constexpr size_t kUserTime = 0x3C;
inline constexpr size_t kActivityId = 0x40;
inline constexpr size_t kHeaderSize = 0x50;
} // namespace event_header_layout

// The on-disk extended data item header.
namespace extended_item_layout {
inline constexpr size_t kSize = 0x00;
inline constexpr size_t kType = 0x02;
inline constexpr size_t kLinkage = 0x04;
inline constexpr size_t kDataSize = 0x06;
inline constexpr size_t kHeaderSize = 0x08;
inline constexpr uint16_t kLinkageMore = 0x0001;
} // namespace extended_item_layout

// Walks the extended item chain that starts at the end of the fixed header;
// on success sets extended/extended_types and returns where the user data
// starts, else 0.
size_t walk_extended_items(std::span<const uint8_t> record, Event &out);

// Inline: user events are a large share of most traces.
inline RecordFault parse_event_header_record(std::span<const uint8_t> record, const RecordShape &shape, Event &out) {
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
    if (flags & event_flag::kExtendedInfo) {
        user_data_at = walk_extended_items(record, out);
        if (user_data_at == 0) {
            return RecordFault::BadExtendedItem;
        }
    }
    out.payload = record.subspan(user_data_at);
    return RecordFault::None;
}

} // namespace dtrace::etw
