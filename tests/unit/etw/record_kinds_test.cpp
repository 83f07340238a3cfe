// record_kinds_test.cpp: every record header kind, normalized into Event.
//
// Each test writes one record of a kind with distinctive values in every
// field and checks where each value lands (provider GUID, ids, pid/tid, cpu
// from the buffer, times, flags with the bitness bit, payload span), and the
// per-kind counters.
#include <gtest/gtest.h>

#include "etl_file_builder.h"
#include "reader/kernel_groups.h"
#include "reader/message_record.h"
#include "reader/record_shape.h"
#include "sample_traces.h"
#include "test_support.h"

namespace dtrace::etw {
namespace {

using namespace fixture;
using test::OwnedEvent;

constexpr uint16_t kCpu = 3;
constexpr int64_t kWhen = 2000000;
const Bytes kPayload = {1, 2, 3, 4, 5, 6, 7, 8, 9};

// Reads a file holding the header and one record on kCpu; returns the record's event.
OwnedEvent read_one(const Bytes &record, ReaderStats *stats = nullptr) {
    EtlFileBuilder builder;
    BufferSpec buffer;
    buffer.cpu = kCpu;
    buffer.records.push_back(record);
    builder.add_buffer(buffer);
    Result<EtlReader> reader = test::open_bytes(builder.build());
    EXPECT_TRUE(reader) << reader.error();
    if (!reader) {
        return {};
    }
    std::vector<OwnedEvent> events = test::read_all(reader.value());
    if (stats) {
        *stats = reader.value().stats();
    }
    EXPECT_EQ(events.size(), 2u);
    return events.empty() ? OwnedEvent{} : events.back();
}

class KernelRecordTest : public ::testing::TestWithParam<std::tuple<KernelRecord::Form, uint8_t>> {};

TEST_P(KernelRecordTest, HookIdNamesTheClassAndOpcode) {
    auto [form, bits] = GetParam();
    KernelRecord k;
    k.form = form;
    k.pointer_size = bits;
    k.version = 4;
    k.hook_id = 0x0301; // Process/Start
    k.tid = 1234;
    k.pid = 5678;
    k.timestamp = kWhen;
    k.kernel_time = 77;
    k.user_time = 88;
    k.payload = kPayload;
    ReaderStats stats;
    OwnedEvent e = read_one(encode(k), &stats);
    const RecordKind kinds[] = {RecordKind::System, RecordKind::CompactSystem, RecordKind::PerfInfo};
    RecordKind kind = kinds[static_cast<int>(form)];
    EXPECT_EQ(e.event.kind, kind);
    EXPECT_EQ(stats.records_of(kind), kind == RecordKind::System ? 2u : 1u); // the header record is SYSTEM
    EXPECT_EQ(e.event.provider.to_string(), "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c");
    EXPECT_EQ(e.event.hook_id, 0x0301);
    EXPECT_EQ(e.event.opcode, 1);
    EXPECT_EQ(e.event.id, 0);
    EXPECT_EQ(e.event.version, 4);
    EXPECT_EQ(e.event.pointer_size, bits);
    EXPECT_EQ(e.event.flags,
              event_flag::kClassicHeader | (bits == 4 ? event_flag::k32BitHeader : event_flag::k64BitHeader));
    EXPECT_EQ(e.event.cpu, kCpu);
    EXPECT_EQ(e.event.timestamp, kWhen);
    EXPECT_EQ(e.payload, kPayload);
    EXPECT_EQ(e.record.size(), e.payload.size() + (form == KernelRecord::Form::System    ? 0x20u
                                                   : form == KernelRecord::Form::Compact ? 0x18u
                                                                                         : 0x10u));
    if (form == KernelRecord::Form::PerfInfo) {
        EXPECT_EQ(e.event.pid, kUnknownId);
        EXPECT_EQ(e.event.tid, kUnknownId);
    } else {
        EXPECT_EQ(e.event.pid, 5678u);
        EXPECT_EQ(e.event.tid, 1234u);
    }
    EXPECT_EQ(e.event.kernel_time, form == KernelRecord::Form::System ? 77u : 0u);
    EXPECT_EQ(e.event.user_time, form == KernelRecord::Form::System ? 88u : 0u);
}

INSTANTIATE_TEST_SUITE_P(AllForms, KernelRecordTest,
                         ::testing::Combine(::testing::Values(KernelRecord::Form::System, KernelRecord::Form::Compact,
                                                              KernelRecord::Form::PerfInfo),
                                            ::testing::Values(uint8_t{4}, uint8_t{8})));

TEST(KernelRecord, PebsIndexAndPmcCountersPrecedeThePayload) {
    KernelRecord k;
    k.form = KernelRecord::Form::PerfInfo;
    k.hook_id = 0x0F2E; // PerfInfo/SampledProfile
    k.timestamp = kWhen;
    k.pebs_index = 0xFEEDull;
    k.pmc_counters = {10, 20, 30};
    k.payload = kPayload;
    OwnedEvent e = read_one(encode(k));
    EXPECT_EQ(e.event.provider.to_string(), "ce1dbfb4-137e-4da6-87b0-3f59aa102cbc");
    EXPECT_TRUE(e.event.has_pebs_index);
    EXPECT_EQ(e.event.pebs_index, 0xFEEDu);
    EXPECT_EQ(e.payload, kPayload);
    EXPECT_EQ(e.event.version, 2); // the extra bits are not part of the version
    // The counters sit between the fixed header, the PEBS index and the payload.
    ASSERT_EQ(e.record.size(), 0x10 + 8 + 3 * 8 + kPayload.size());
    EXPECT_EQ(e.record[0x10 + 8], 10);
    EXPECT_EQ(e.record[0x10 + 16], 20);
}

TEST(KernelRecord, ImageLoadIsAnImageClassEvent) {
    EXPECT_EQ(kernel_class_guid(0x030A).to_string(), "2cb15d1d-5fc1-11d2-abe1-00a0c911f518");
    EXPECT_EQ(kernel_class_guid(0x030B).to_string(), "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c");
    EXPECT_EQ(kernel_class_guid(0x0524).to_string(), "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c"); // CSwitch
    EXPECT_EQ(kernel_class_guid(0x1820).to_string(), "def2fe46-7bd6-4b80-bd94-f57fe20d0ce3"); // Stack
    EXPECT_EQ(kernel_class_guid(0x0000), kEventTraceGuid);
    EXPECT_TRUE(kernel_class_guid(0x4001).is_zero()); // no such group
}

class EventHeaderTest : public ::testing::TestWithParam<uint8_t> {};

TEST_P(EventHeaderTest, TheDescriptorAndContextLandInTheEvent) {
    EventHeaderSpec spec;
    spec.pointer_size = GetParam();
    spec.flags = 0x0010;       // NO_CPUTIME
    spec.event_property = 0x8; // RELOGGABLE
    spec.tid = 168672;
    spec.pid = 179596;
    spec.timestamp = kWhen;
    spec.provider = kSampleProvider;
    spec.id = 187;
    spec.version = 1;
    spec.channel = 16;
    spec.level = 4;
    spec.opcode = 10;
    spec.task = 113;
    spec.keyword = 0x8000000000000001ull;
    spec.kernel_time = 3;
    spec.user_time = 9;
    spec.activity_id = kMessageGuid;
    spec.payload = kPayload;
    ReaderStats stats;
    OwnedEvent e = read_one(encode(spec), &stats);
    EXPECT_EQ(e.event.kind, RecordKind::EventHeader);
    EXPECT_EQ(stats.records_of(RecordKind::EventHeader), 1u);
    EXPECT_EQ(e.event.header_type, GetParam() == 4 ? header_type::kEventHeader32 : header_type::kEventHeader64);
    EXPECT_EQ(e.event.provider, kSampleProvider);
    EXPECT_EQ(e.event.id, 187);
    EXPECT_EQ(e.event.version, 1);
    EXPECT_EQ(e.event.channel, 16);
    EXPECT_EQ(e.event.level, 4);
    EXPECT_EQ(e.event.opcode, 10);
    EXPECT_EQ(e.event.task, 113);
    EXPECT_EQ(e.event.keyword, 0x8000000000000001ull);
    EXPECT_EQ(e.event.pid, 179596u);
    EXPECT_EQ(e.event.tid, 168672u);
    EXPECT_EQ(e.event.kernel_time, 3u);
    EXPECT_EQ(e.event.user_time, 9u);
    EXPECT_EQ(e.event.activity_id, kMessageGuid);
    EXPECT_EQ(e.event.event_property, 0x8);
    EXPECT_EQ(e.event.pointer_size, GetParam());
    EXPECT_EQ(e.event.flags, 0x0010 | (GetParam() == 4 ? event_flag::k32BitHeader : event_flag::k64BitHeader));
    EXPECT_EQ(e.event.cpu, kCpu);
    EXPECT_EQ(e.payload, kPayload);
    EXPECT_TRUE(e.extended.empty());
    EXPECT_EQ(e.event.extended_types, 0u);
}

INSTANTIATE_TEST_SUITE_P(PointerSizes, EventHeaderTest, ::testing::Values(uint8_t{4}, uint8_t{8}));

TEST(EventHeader, TheBitnessFlagFollowsTheHeaderTypeNotTheFileFlags) {
    EventHeaderSpec spec;
    spec.pointer_size = 4;
    spec.flags = event_flag::k64BitHeader; // wrong in the file: the type says 32-bit
    spec.timestamp = kWhen;
    OwnedEvent e = read_one(encode(spec));
    EXPECT_EQ(e.event.flags, event_flag::k32BitHeader);
}

class ClassicTest : public ::testing::TestWithParam<std::tuple<bool, uint8_t>> {};

TEST_P(ClassicTest, TheGuidAndClassFieldsLandInTheEvent) {
    auto [instance, bits] = GetParam();
    ClassicSpec spec;
    spec.pointer_size = bits;
    spec.instance = instance;
    spec.type = 36;
    spec.level = 5;
    spec.version = 2;
    spec.tid = 44;
    spec.pid = 55;
    spec.timestamp = kWhen;
    spec.guid = kClassicGuid;
    spec.kernel_time = 6;
    spec.user_time = 7;
    spec.instance_id = 900;
    spec.parent_instance_id = 899;
    spec.parent_guid = kSampleProvider;
    spec.payload = kPayload;
    ReaderStats stats;
    OwnedEvent e = read_one(encode(spec), &stats);
    RecordKind kind = instance ? RecordKind::Instance : RecordKind::Classic;
    EXPECT_EQ(e.event.kind, kind);
    EXPECT_EQ(stats.records_of(kind), 1u);
    EXPECT_EQ(e.event.provider, kClassicGuid);
    EXPECT_EQ(e.event.opcode, 36);
    EXPECT_EQ(e.event.level, 5);
    EXPECT_EQ(e.event.version, 2);
    EXPECT_EQ(e.event.id, 0);
    EXPECT_EQ(e.event.pid, 55u);
    EXPECT_EQ(e.event.tid, 44u);
    EXPECT_EQ(e.event.kernel_time, 6u);
    EXPECT_EQ(e.event.user_time, 7u);
    EXPECT_EQ(e.event.pointer_size, bits);
    EXPECT_EQ(e.event.flags,
              event_flag::kClassicHeader | (bits == 4 ? event_flag::k32BitHeader : event_flag::k64BitHeader));
    EXPECT_EQ(e.payload, kPayload);
    EXPECT_EQ(e.event.instance_id, instance ? 900u : 0u);
    EXPECT_EQ(e.event.parent_instance_id, instance ? 899u : 0u);
    EXPECT_EQ(e.event.parent_guid, instance ? kSampleProvider : Guid{});
}

INSTANTIATE_TEST_SUITE_P(Both, ClassicTest,
                         ::testing::Combine(::testing::Bool(), ::testing::Values(uint8_t{4}, uint8_t{8})));

TEST(MessageRecord, EveryOptionalFieldIsRead) {
    MessageSpec spec;
    spec.message_number = 21;
    spec.sequence = 4000;
    spec.guid = kMessageGuid;
    spec.timestamp = kWhen;
    spec.system_info = std::pair<uint32_t, uint32_t>{31, 41};
    spec.pointer_flags = message_option::kPointer32;
    spec.payload = kPayload;
    ReaderStats stats;
    OwnedEvent e = read_one(encode(spec), &stats);
    EXPECT_EQ(e.event.kind, RecordKind::Message);
    EXPECT_EQ(stats.records_of(RecordKind::Message), 1u);
    EXPECT_EQ(e.event.id, 21);
    EXPECT_EQ(e.event.sequence, 4000u);
    EXPECT_EQ(e.event.provider, kMessageGuid);
    EXPECT_EQ(e.event.timestamp, kWhen);
    EXPECT_EQ(e.event.tid, 31u);
    EXPECT_EQ(e.event.pid, 41u);
    EXPECT_EQ(e.event.pointer_size, 4);
    EXPECT_EQ(e.event.flags, event_flag::kTraceMessage | event_flag::k32BitHeader);
    EXPECT_EQ(e.event.message_flags, message_option::kSequence | message_option::kGuid | message_option::kTimestamp |
                                         message_option::kSystemInfo | message_option::kPointer32);
    EXPECT_EQ(e.payload, kPayload);
}

TEST(MessageRecord, AComponentIdMessageWithoutTimestampIsDatedByItsPredecessor) {
    EtlFileBuilder builder;
    BufferSpec buffer;
    buffer.cpu = 1;
    buffer.records.push_back(sample_event(1, kWhen, 0));
    MessageSpec bare;
    bare.message_number = 5;
    bare.component_id = 77;
    buffer.records.push_back(encode(bare));
    builder.add_buffer(buffer);
    std::vector<OwnedEvent> events = test::read_bytes(builder.build());
    ASSERT_EQ(events.size(), 3u);
    const Event &m = events[2].event;
    EXPECT_EQ(m.kind, RecordKind::Message);
    EXPECT_EQ(m.component_id, 77u);
    EXPECT_TRUE(m.provider.is_zero());
    EXPECT_EQ(m.timestamp, kWhen);
    EXPECT_EQ(m.pid, kUnknownId);
    EXPECT_EQ(m.pointer_size, 8); // the logfile header's pointer size
    EXPECT_TRUE(events[2].payload.empty());
}

TEST(MessageRecord, AUserModeMessageIsNotMistakenForATypedHeader) {
    // Flags byte 0xD0: TRACE_HEADER_FLAG | EVENT_TRACE | MESSAGE, type byte 0.
    RecordShape shape = classify_marker(0xD0000010);
    EXPECT_EQ(shape.use, RecordShape::Use::Event);
    EXPECT_EQ(shape.kind, RecordKind::Message);
    EXPECT_EQ(classify_marker(0xC0070010).use, RecordShape::Use::Corrupt); // typed, unknown type
    EXPECT_EQ(classify_marker(0x00000010).use, RecordShape::Use::Corrupt); // no flags at all
}

TEST(SkippedRecords, WnodeErrorAndTimedRecordsAreCountedNotDelivered) {
    EtlFileBuilder builder;
    BufferSpec buffer;
    buffer.records.push_back(encode_skipped_record(header_type::kWnode, 24));
    buffer.records.push_back(encode_skipped_record(header_type::kError, 12));
    buffer.records.push_back(encode_skipped_record(header_type::kTimed, 40));
    buffer.records.push_back(sample_event(9, kWhen, 1));
    builder.add_buffer(buffer);
    Result<EtlReader> reader = test::open_bytes(builder.build());
    ASSERT_TRUE(reader);
    std::vector<OwnedEvent> events = test::read_all(reader.value());
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[1].event.id, 9);
    EXPECT_EQ(reader.value().stats().skipped_records, 3u);
    EXPECT_EQ(reader.value().stats().corrupt_buffers, 0u);
}

TEST(EveryKind, KindsHaveShortNames) {
    EXPECT_EQ(record_kind_name(RecordKind::System), "system");
    EXPECT_EQ(record_kind_name(RecordKind::CompactSystem), "compact");
    EXPECT_EQ(record_kind_name(RecordKind::PerfInfo), "perfinfo");
    EXPECT_EQ(record_kind_name(RecordKind::EventHeader), "event");
    EXPECT_EQ(record_kind_name(RecordKind::Classic), "classic");
    EXPECT_EQ(record_kind_name(RecordKind::Instance), "instance");
    EXPECT_EQ(record_kind_name(RecordKind::Message), "message");
}

TEST(EveryKind, TheSampleTraceDeliversEachKindOnce) {
    Result<EtlReader> reader = test::open_bytes(sample_every_kind());
    ASSERT_TRUE(reader);
    std::vector<OwnedEvent> events = test::read_all(reader.value());
    const ReaderStats &s = reader.value().stats();
    EXPECT_EQ(events.size(), kEveryKindRecords);
    EXPECT_EQ(s.events, kEveryKindRecords);
    EXPECT_EQ(s.records_of(RecordKind::System), 3u); // two + the logfile header
    EXPECT_EQ(s.records_of(RecordKind::CompactSystem), 2u);
    EXPECT_EQ(s.records_of(RecordKind::PerfInfo), 2u);
    EXPECT_EQ(s.records_of(RecordKind::EventHeader), 2u);
    EXPECT_EQ(s.records_of(RecordKind::Classic), 2u);
    EXPECT_EQ(s.records_of(RecordKind::Instance), 2u);
    EXPECT_EQ(s.records_of(RecordKind::Message), 2u);
    EXPECT_EQ(s.skipped_records, 1u);
    EXPECT_EQ(s.corrupt_buffers, 0u);
    EXPECT_EQ(s.out_of_order_events, 0u);
    EXPECT_EQ(reader.value().cpus(), (std::vector<uint16_t>{0, 1}));
}

} // namespace
} // namespace dtrace::etw
