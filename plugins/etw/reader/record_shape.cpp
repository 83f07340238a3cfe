// record_shape.cpp: the table of header types (see record_shape.h).
#include "reader/record_shape.h"

#include <array>

#include "reader/classic_record.h"
#include "reader/event_header_record.h"
#include "reader/message_record.h"
#include "reader/system_record.h"

namespace dtrace::etw {

namespace {

constexpr RecordShape event_shape(RecordKind kind, uint8_t pointer_size, size_t header_size, size_t size_offset,
                                  size_t timestamp_offset) {
    RecordShape s;
    s.use = RecordShape::Use::Event;
    s.kind = kind;
    s.pointer_size = pointer_size;
    s.header_size = static_cast<uint8_t>(header_size);
    s.size_offset = static_cast<uint8_t>(size_offset);
    s.timestamp_offset = static_cast<uint8_t>(timestamp_offset);
    return s;
}

// Known records that carry no event: their size is in the marker; only the
// marker itself is required.
constexpr RecordShape skip_shape() {
    RecordShape s;
    s.use = RecordShape::Use::Skip;
    s.header_size = kMarkerSize;
    s.size_offset = kSizeInMarker;
    return s;
}

constexpr std::array<RecordShape, kHeaderTypeCount> make_table() {
    std::array<RecordShape, kHeaderTypeCount> t{};
    for (uint8_t bits : {uint8_t{4}, uint8_t{8}}) {
        bool is32 = bits == 4;
        t[is32 ? header_type::kSystem32 : header_type::kSystem64] = event_shape(
            RecordKind::System, bits, system_layout::kFullHeaderSize, system_layout::kSize, system_layout::kSystemTime);
        t[is32 ? header_type::kCompact32 : header_type::kCompact64] =
            event_shape(RecordKind::CompactSystem, bits, system_layout::kCompactHeaderSize, system_layout::kSize,
                        system_layout::kSystemTime);
        t[is32 ? header_type::kPerfInfo32 : header_type::kPerfInfo64] =
            event_shape(RecordKind::PerfInfo, bits, perfinfo_layout::kHeaderSize, perfinfo_layout::kSize,
                        perfinfo_layout::kSystemTime);
        t[is32 ? header_type::kEventHeader32 : header_type::kEventHeader64] =
            event_shape(RecordKind::EventHeader, bits, event_header_layout::kHeaderSize, event_header_layout::kSize,
                        event_header_layout::kTimeStamp);
        t[is32 ? header_type::kFull32 : header_type::kFull64] = event_shape(
            RecordKind::Classic, bits, classic_layout::kHeaderSize, classic_layout::kSize, classic_layout::kTimeStamp);
        t[is32 ? header_type::kInstance32 : header_type::kInstance64] =
            event_shape(RecordKind::Instance, bits, instance_layout::kHeaderSize, classic_layout::kSize,
                        classic_layout::kTimeStamp);
    }
    t[header_type::kTimed] = skip_shape();
    t[header_type::kError] = skip_shape();
    t[header_type::kWnode] = skip_shape();
    return t;
}

} // namespace

constexpr std::array<RecordShape, kHeaderTypeCount> kRecordShapes = make_table();

constexpr RecordShape kMessageShape =
    event_shape(RecordKind::Message, 0, message_layout::kHeaderSize, message_layout::kSize, 0);
constexpr RecordShape kCorruptShape{};

std::string_view record_kind_name(RecordKind kind) {
    switch (kind) {
    case RecordKind::System:
        return "system";
    case RecordKind::CompactSystem:
        return "compact";
    case RecordKind::PerfInfo:
        return "perfinfo";
    case RecordKind::EventHeader:
        return "event";
    case RecordKind::Classic:
        return "classic";
    case RecordKind::Instance:
        return "instance";
    case RecordKind::Message:
        return "message";
    }
    return "unknown";
}

} // namespace dtrace::etw
