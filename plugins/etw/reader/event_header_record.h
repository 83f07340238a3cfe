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

RecordFault parse_event_header_record(std::span<const uint8_t> record, const RecordShape &shape, Event &out);

} // namespace dtrace::etw
