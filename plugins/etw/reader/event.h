// event.h: one ETL record, normalized.
//
// ETL files mix seven header families (kernel SYSTEM and compact SYSTEM,
// PERFINFO, EVENT_HEADER, classic EVENT_TRACE and EVENT_INSTANCE, WPP
// messages), each in 32- and 64-bit flavours. Consumers (the etw plugin's
// probes, diag:::events) want one shape: who logged it (provider GUID; for
// kernel events the event class GUID and the hook's opcode), which event, the
// context (pid, tid, cpu, time) and the payload. Event is that shape, filled
// the way Windows' own consumer API presents each family (EVENT_RECORD), plus
// what is particular to a family (hook id, instance ids, WPP message fields).
//
// Events are plain values with spans into the reader's current buffer: the
// reader allocates nothing per event. The spans stay valid until the next
// call to EtlReader::next().
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "reader/guid.h"

namespace dtrace::etw {

enum class RecordKind : uint8_t {
    System,        // SYSTEM_TRACE_HEADER: NT kernel events with pid/tid
    CompactSystem, // the compact SYSTEM header (no kernel/user times)
    PerfInfo,      // PERFINFO_TRACE_HEADER: kernel events without pid/tid
    EventHeader,   // EVENT_HEADER: manifest, EventSource and TraceLogging events
    Classic,       // EVENT_TRACE_HEADER: classic (MOF) events identified by GUID
    Instance,      // EVENT_INSTANCE_GUID_HEADER: classic events with instance ids
    Message,       // MESSAGE_TRACE_HEADER: WPP / TraceMessage
};
inline constexpr size_t kRecordKindCount = 7;

std::string_view record_kind_name(RecordKind kind);

// EVENT_HEADER_FLAG_* (evntcons.h). Event::flags carries these for every
// family, as Windows' consumer API sets them: CLASSIC_HEADER for MOF-style
// records, TRACE_MESSAGE for WPP, and always the 32/64-bit header bit (which
// files themselves do not record).
namespace event_flag {
inline constexpr uint16_t kExtendedInfo = 0x0001;
inline constexpr uint16_t kPrivateSession = 0x0002;
inline constexpr uint16_t kStringOnly = 0x0004;
inline constexpr uint16_t kTraceMessage = 0x0008;
inline constexpr uint16_t kNoCpuTime = 0x0010;
inline constexpr uint16_t k32BitHeader = 0x0020;
inline constexpr uint16_t k64BitHeader = 0x0040;
inline constexpr uint16_t kClassicHeader = 0x0100;
} // namespace event_flag

// A pid or tid the record does not carry (PERFINFO records, WPP messages
// without system info); Windows reports these as -1 too.
inline constexpr uint32_t kUnknownId = 0xFFFFFFFF;

struct Event {
    RecordKind kind = RecordKind::System;
    uint8_t header_type = 0;  // TRACE_HEADER_TYPE_* as found in the record
    uint8_t pointer_size = 8; // 4 or 8: bitness of the logging process
    uint16_t cpu = 0;         // from the buffer
    uint16_t flags = 0;       // event_flag::*
    uint16_t event_property = 0;

    // EVENT_HEADER: ProviderId. Classic/instance: the event GUID. Kernel
    // SYSTEM/PERFINFO: the event class GUID of the hook's group. WPP: the
    // message GUID (zero when the message carries a component id instead).
    Guid provider;
    Guid activity_id;
    uint16_t id = 0; // EVENT_DESCRIPTOR.Id; WPP: the message number; else 0
    uint8_t version = 0;
    uint8_t channel = 0;
    uint8_t level = 0;
    uint8_t opcode = 0; // classic: Class.Type; kernel: low byte of the hook id
    uint16_t task = 0;
    uint64_t keyword = 0;
    uint16_t hook_id = 0; // kernel families only: (group << 8) | type

    uint32_t pid = kUnknownId;
    uint32_t tid = kUnknownId;
    uint32_t kernel_time = 0;
    uint32_t user_time = 0;
    int64_t timestamp = 0; // raw, in the session clock
    int64_t time_ns = 0;   // nanoseconds since the Unix epoch

    std::span<const uint8_t> record;   // the whole record, header included
    std::span<const uint8_t> payload;  // the user data
    std::span<const uint8_t> extended; // EVENT_HEADER extended data items (see extended_items.h)
    uint32_t extended_types = 0;       // bit n: an item of type n (n < 32) is present

    // Kernel families: performance counters and PEBS index logged after the
    // fixed header (Version bits 0x0700 and 0x8000).
    std::span<const uint8_t> pmc_counters; // little-endian u64 each
    uint64_t pebs_index = 0;
    bool has_pebs_index = false;

    // Instance family.
    uint32_t instance_id = 0;
    uint32_t parent_instance_id = 0;
    Guid parent_guid;

    // WPP family.
    uint32_t sequence = 0;
    uint32_t component_id = 0;
    uint16_t message_flags = 0; // TRACE_MESSAGE_* option flags

    // Which file of a multi-file session (merged_stream.h) the event comes
    // from, in the order given; 0 for a single file.
    uint8_t source = 0;

    uint64_t buffer_offset = 0; // file offset of the buffer holding the record
    uint32_t record_offset = 0; // offset of the record in the (decompressed) buffer
};

} // namespace dtrace::etw
