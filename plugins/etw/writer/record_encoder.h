// record_encoder.h: ETL records of every header kind (fixtures, etw_trace()).
//
// Each struct describes one record the way a test thinks of it (who, when,
// what payload); encode() lays it out exactly as Windows does, using the
// reader's own layout constants, and returns the record's bytes (unpadded:
// buffers pad records to 8 bytes). The logfile header record is here too,
// since every trace starts with one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reader/guid.h"
#include "reader/logfile_header.h"
#include "writer/byte_writer.h"

namespace dtrace::etw::writer {

// SYSTEM (full or compact) and PERFINFO kernel records.
struct KernelRecord {
    enum class Form { System, Compact, PerfInfo };
    Form form = Form::System;
    uint8_t pointer_size = 8;
    uint8_t version = 2;
    uint16_t hook_id = 0;
    uint32_t tid = 0; // not in PERFINFO
    uint32_t pid = 0; // not in PERFINFO
    int64_t timestamp = 0;
    uint32_t kernel_time = 0; // full SYSTEM only
    uint32_t user_time = 0;
    std::optional<uint64_t> pebs_index;
    std::vector<uint64_t> pmc_counters;
    Bytes payload;
};

struct ExtendedItemSpec {
    uint16_t type = 0;
    Bytes data;
};

struct EventHeaderSpec {
    uint8_t pointer_size = 8;
    uint16_t flags = 0; // EXTENDED_INFO is added when there are items
    uint16_t event_property = 0;
    uint32_t tid = 0;
    uint32_t pid = 0;
    int64_t timestamp = 0;
    Guid provider;
    uint16_t id = 0;
    uint8_t version = 0;
    uint8_t channel = 0;
    uint8_t level = 0;
    uint8_t opcode = 0;
    uint16_t task = 0;
    uint64_t keyword = 0;
    uint32_t kernel_time = 0;
    uint32_t user_time = 0;
    Guid activity_id;
    std::vector<ExtendedItemSpec> items;
    Bytes payload;
};

// EVENT_TRACE_HEADER, or EVENT_INSTANCE_GUID_HEADER when instance is set.
struct ClassicSpec {
    uint8_t pointer_size = 8;
    bool instance = false;
    uint8_t type = 0;
    uint8_t level = 0;
    uint16_t version = 0;
    uint32_t tid = 0;
    uint32_t pid = 0;
    int64_t timestamp = 0;
    Guid guid;
    uint32_t kernel_time = 0;
    uint32_t user_time = 0;
    uint32_t instance_id = 0;
    uint32_t parent_instance_id = 0;
    Guid parent_guid;
    Bytes payload;
};

// WPP / TraceMessage; the option flags follow from the fields present.
struct MessageSpec {
    uint16_t message_number = 0;
    std::optional<uint32_t> sequence;
    std::optional<Guid> guid;
    std::optional<uint32_t> component_id;
    std::optional<int64_t> timestamp;
    std::optional<std::pair<uint32_t, uint32_t>> system_info; // tid, pid
    uint16_t pointer_flags = 0;                               // TRACE_MESSAGE_POINTER32/64
    Bytes payload;
};

// The EventTrace/Header record and its TRACE_LOGFILE_HEADER payload.
struct LogfileSpec {
    uint8_t pointer_size = 8;
    uint32_t buffer_size = 0x10000;
    uint8_t major_version = 10, minor_version = 0, sub_version = 1, sub_minor_version = 5;
    uint32_t provider_version = 19045;
    uint32_t number_of_processors = 4;
    int64_t end_time = 0;
    uint32_t timer_resolution = 156250;
    uint32_t maximum_file_size = 0;
    uint32_t log_file_mode = dtrace::etw::log_file_mode::kSequential;
    uint32_t buffers_written = 0;
    uint32_t start_buffers = 1;
    uint32_t events_lost = 0;
    uint32_t cpu_speed_mhz = 3000;
    int32_t time_zone_bias_minutes = 0;
    int64_t boot_time = 0;
    int64_t perf_freq = 10000000;
    int64_t start_time = 133000000000000000LL; // FILETIME, 2022-06-15
    uint32_t clock_type = dtrace::etw::clock_type::kQpc;
    uint32_t buffers_lost = 0;
    std::u16string logger_name = u"FixtureSession";
    std::u16string log_file_name = u"C:\\fixture.etl";
    int64_t header_timestamp = 100; // before the samples' events
    uint32_t tid = 4;
    uint32_t pid = 8;
};

Bytes encode(const KernelRecord &spec);
Bytes encode(const EventHeaderSpec &spec);
Bytes encode(const ClassicSpec &spec);
Bytes encode(const MessageSpec &spec);
Bytes encode(const LogfileSpec &spec);
// A WNODE, error or timed record: marker with the size in its low half.
Bytes encode_skipped_record(uint8_t header_type, uint16_t size);

} // namespace dtrace::etw::writer
