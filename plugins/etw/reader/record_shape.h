// record_shape.h: what the first dword of a record says about it.
//
// Every record starts with a marker dword: bytes 0-1 are a size or version,
// byte 2 the header type, byte 3 flags (ntwmi.h). The header type selects
// one of the families of event.h and, with it, the fixed header size, where
// the record size and the timestamp are, and the pointer size of the payload
// ("32"/"64" in the type names is the logging process's bitness, not a
// different header layout). The table of types is in record_shape.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "reader/event.h"

namespace dtrace::etw {

namespace header_type {
inline constexpr uint8_t kSystem32 = 0x01;
inline constexpr uint8_t kSystem64 = 0x02;
inline constexpr uint8_t kCompact32 = 0x03;
inline constexpr uint8_t kCompact64 = 0x04;
inline constexpr uint8_t kFull32 = 0x0A;
inline constexpr uint8_t kInstance32 = 0x0B;
inline constexpr uint8_t kTimed = 0x0C;
inline constexpr uint8_t kError = 0x0D;
inline constexpr uint8_t kWnode = 0x0E;
inline constexpr uint8_t kPerfInfo32 = 0x10;
inline constexpr uint8_t kPerfInfo64 = 0x11;
inline constexpr uint8_t kEventHeader32 = 0x12;
inline constexpr uint8_t kEventHeader64 = 0x13;
inline constexpr uint8_t kFull64 = 0x14;
inline constexpr uint8_t kInstance64 = 0x15;
} // namespace header_type

namespace marker {
inline constexpr uint32_t kEndOfData = 0xFFFFFFFF; // padding after the last record
inline constexpr uint32_t kEmpty = 0;              // also ends the data
inline constexpr unsigned kFlagsShift = 24;
inline constexpr unsigned kTypeShift = 16;
inline constexpr uint32_t kTypeMask = 0xFF;
inline constexpr uint8_t kTraceHeaderFlag = 0x80; // TRACE_HEADER_FLAG
inline constexpr uint8_t kEventTraceFlag = 0x40;  // TRACE_HEADER_EVENT_TRACE: typed header
inline constexpr uint8_t kMessageFlag = 0x10;     // TRACE_MESSAGE: WPP
inline constexpr uint8_t kTypedHeader = kTraceHeaderFlag | kEventTraceFlag;
inline constexpr uint8_t kMessageHeader = kTraceHeaderFlag | kMessageFlag;
} // namespace marker

// The common fields of the typed headers: marker, then (per family) the
// 16-bit record size either in the marker's low half or in the next word.
inline constexpr size_t kMarkerSize = 4;
inline constexpr size_t kHeaderTypeByte = 2;
inline constexpr size_t kSizeInMarker = 0;
inline constexpr size_t kSizeAfterMarker = 4;

struct RecordShape {
    enum class Use : uint8_t {
        Corrupt, // not a record: the buffer is damaged from here on
        Event,   // a record the reader delivers
        Skip,    // a known record kind without events (WNODE, error, timed)
    };
    Use use = Use::Corrupt;
    RecordKind kind = RecordKind::System;
    uint8_t pointer_size = 0;
    uint8_t header_size = 0; // fixed part; WPP adds optional fields (message_record.h)
    uint8_t size_offset = 0;
    uint8_t timestamp_offset = 0; // unused for WPP, whose timestamp is optional
};

// The shape of each header type, indexed by type (record_shape.cpp).
inline constexpr size_t kHeaderTypeCount = 0x16;
extern const std::array<RecordShape, kHeaderTypeCount> kRecordShapes;
// The WPP shape (its pointer size comes from the option flags) and that of
// what is not a record.
extern const RecordShape kMessageShape;
extern const RecordShape kCorruptShape;

// Inline: it runs once per record. The shape returned is one of the
// constants above.
inline const RecordShape &classify_marker(uint32_t m) {
    uint8_t flags = static_cast<uint8_t>(m >> marker::kFlagsShift);
    uint8_t type = static_cast<uint8_t>((m >> marker::kTypeShift) & marker::kTypeMask);
    // A message header may carry the typed-header bit too (user-mode and WoW64
    // messages), so a typed header only counts when its type is known.
    if ((flags & marker::kTypedHeader) == marker::kTypedHeader && type < kHeaderTypeCount &&
        kRecordShapes[type].use != RecordShape::Use::Corrupt) {
        return kRecordShapes[type];
    }
    if ((flags & marker::kMessageHeader) == marker::kMessageHeader) {
        return kMessageShape;
    }
    return kCorruptShape;
}

// The Event::flags bit that says which pointer size the payload uses.
inline uint16_t bitness_flag(uint8_t pointer_size) {
    return pointer_size == 4 ? event_flag::k32BitHeader : event_flag::k64BitHeader;
}

} // namespace dtrace::etw
