// buffer_walk_test.cpp: walking buffers by their own sizes and records up to
// Offset, end markers, alignment, compressed buffers of odd sizes.
#include <gtest/gtest.h>

#include "etl_file_builder.h"
#include "reader/buffer_header.h"
#include "reader/le_bytes.h"
#include "reader/logfile_header.h"
#include "sample_traces.h"
#include "test_support.h"

namespace dtrace::etw {
namespace {

using namespace fixture;
using test::OwnedEvent;

std::vector<uint16_t> ids(const std::vector<OwnedEvent> &events) {
    std::vector<uint16_t> out;
    for (size_t i = 1; i < events.size(); ++i) { // skip the header record
        out.push_back(events[i].event.id);
    }
    return out;
}

TEST(BufferWalk, DataEndsAtOffsetNotSavedOffset) {
    EtlFileBuilder builder;
    BufferSpec b;
    b.records = {sample_event(1, 1000, 0), sample_event(2, 1001, 0), sample_event(3, 1002, 0)};
    builder.add_buffer(b);
    Bytes file = builder.build();
    // SavedOffset stops after the first record, as in waasmedic's header buffer.
    put_at(file, builder.buffer_offset(1) + buffer_layout::kSavedOffset, uint32_t{0x48 + 0x58});
    EXPECT_EQ(ids(test::read_bytes(file)), (std::vector<uint16_t>{1, 2, 3}));
}

TEST(BufferWalk, RecordsPastOffsetAreNotRead) {
    EtlFileBuilder builder;
    BufferSpec b;
    b.records = {sample_event(1, 1000, 0), sample_event(2, 1001, 0)};
    builder.add_buffer(b);
    Bytes file = builder.build();
    put_at(file, builder.buffer_offset(1) + buffer_layout::kOffset, uint32_t{0x48 + 0x58});
    std::vector<OwnedEvent> events = test::read_bytes(file);
    EXPECT_EQ(ids(events), (std::vector<uint16_t>{1}));
}

TEST(BufferWalk, EndMarkersEndTheBuffer) {
    for (uint32_t end_marker : {0xFFFFFFFFu, 0u}) {
        EtlFileBuilder builder;
        BufferSpec b;
        b.records = {sample_event(1, 1000, 0), sample_event(2, 1001, 0), sample_event(3, 1002, 0)};
        builder.add_buffer(b);
        Bytes file = builder.build();
        put_at(file, builder.buffer_offset(1) + 0x48 + 0x58, end_marker); // over the second record
        std::vector<OwnedEvent> events = test::read_bytes(file);
        EXPECT_EQ(ids(events), (std::vector<uint16_t>{1})) << std::hex << end_marker;
    }
}

TEST(BufferWalk, RecordsAreEightByteAligned) {
    EtlFileBuilder builder;
    BufferSpec b;
    for (uint16_t n : {1, 3, 8, 13, 0}) {
        EventHeaderSpec e;
        e.id = n;
        e.timestamp = 1000 + n;
        e.payload = Bytes(n, static_cast<uint8_t>(n));
        b.records.push_back(encode(e));
    }
    builder.add_buffer(b);
    std::vector<OwnedEvent> events = test::read_bytes(builder.build());
    ASSERT_EQ(events.size(), 6u);
    for (size_t i = 1; i < events.size(); ++i) {
        EXPECT_EQ(events[i].payload, Bytes(events[i].event.id, static_cast<uint8_t>(events[i].event.id)));
        EXPECT_EQ(events[i].event.record_offset % 8, 0u);
    }
}

TEST(BufferWalk, EachBufferIsSteppedOverByItsOwnSize) {
    // A relogged file: a small header buffer, then buffers of three sizes.
    EtlFileBuilder builder;
    builder.set_header_buffer_size(0x400);
    uint16_t id = 1;
    for (uint32_t size : {0x1000u, 0x1800u, 0x400u, 0x3000u}) {
        BufferSpec b;
        b.cpu = 1;
        b.size = size;
        b.records = {sample_event(id, 1000 + id, 0)};
        ++id;
        builder.add_buffer(b);
    }
    Bytes file = builder.build();
    EXPECT_EQ(builder.buffer_offset(2), 0x400u + 0x1000u);
    EXPECT_EQ(builder.buffer_offset(4), 0x400u + 0x1000u + 0x1800u + 0x400u);
    Result<EtlReader> reader = test::open_bytes(file);
    ASSERT_TRUE(reader);
    std::vector<OwnedEvent> events = test::read_all(reader.value());
    EXPECT_EQ(ids(events), (std::vector<uint16_t>{1, 2, 3, 4}));
    EXPECT_EQ(events[4].event.buffer_offset, builder.buffer_offset(4));
    EXPECT_EQ(reader.value().stats().buffers, 5u);
}

TEST(BufferWalk, CompressedBuffersHaveOddSizesAndDecompressToTheirOffset) {
    Bytes file = sample_compressed(400);
    Result<EtlReader> reader = test::open_bytes(file);
    ASSERT_TRUE(reader);
    std::vector<OwnedEvent> events = test::read_all(reader.value());
    const ReaderStats &s = reader.value().stats();
    ASSERT_EQ(events.size(), 401u);
    EXPECT_GT(s.compressed_buffers, 2u);
    EXPECT_EQ(s.compressed_buffers + 1, s.buffers); // all but the header buffer
    EXPECT_EQ(s.corrupt_buffers, 0u);
    bool odd = false;
    for (size_t i = 1; i < events.size(); ++i) {
        EXPECT_EQ(events[i].event.timestamp, 1000 + int64_t(i - 1));
        EXPECT_EQ(test::payload_u64(events[i]), static_cast<uint64_t>(events[i].event.timestamp));
        odd |= events[i].event.buffer_offset % 2 == 1;
    }
    EXPECT_TRUE(odd) << "compressed buffers should land at odd offsets";
    EXPECT_EQ(reader.value().logfile().log_file_mode, log_file_mode::kRelog | log_file_mode::kCompressed);
    EXPECT_EQ(reader.value().logfile().logger_name, "Relogger");
}

TEST(BufferWalk, AZeroBufferSizeIsThePreallocatedEnd) {
    EtlFileBuilder builder;
    builder.add_records(0, {sample_event(1, 1000, 0)});
    Bytes file = builder.build();
    file.resize(file.size() + 3 * 0x10000, 0);
    Result<EtlReader> reader = test::open_bytes(file);
    ASSERT_TRUE(reader);
    EXPECT_EQ(test::read_all(reader.value()).size(), 2u);
    EXPECT_EQ(reader.value().stats().corrupt_buffers, 0u);
}

TEST(BufferWalk, WithoutTheProcessorIndexFlagTheCpuIsOneByte) {
    // Windows 7 buffers: ProcessorNumber is a byte, the next byte is alignment.
    EtlFileBuilder builder;
    BufferSpec b;
    b.flags = 0;
    b.cpu = 0x3305;
    b.records = {sample_event(1, 1000, 0)};
    builder.add_buffer(b);
    std::vector<OwnedEvent> events = test::read_bytes(builder.build());
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[1].event.cpu, 5);
}

TEST(BufferWalk, TheProcessorIndexIsElevenBits) {
    EtlFileBuilder builder;
    BufferSpec b;
    b.cpu = 0xF9FF; // index 0x1FF plus unrelated high bits
    b.records = {sample_event(1, 1000, 0)};
    builder.add_buffer(b);
    std::vector<OwnedEvent> events = test::read_bytes(builder.build());
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[1].event.cpu, 0x1FF);
}

TEST(BufferWalk, LostEventsAreCountedFromFlagsRecordsAndTheHeader) {
    LogfileSpec spec;
    spec.events_lost = 12;
    spec.buffers_lost = 3;
    EtlFileBuilder builder(spec);
    BufferSpec lossy;
    lossy.flags = buffer_flag::kProcessorIndex | buffer_flag::kEventsLost;
    lossy.records = {sample_event(1, 1000, 0)};
    builder.add_buffer(lossy);
    BufferSpec after_loss;
    after_loss.flags = buffer_flag::kProcessorIndex | buffer_flag::kBufferLost;
    ClassicSpec lost; // RT_LostEvent/RTLostEvent
    lost.guid = *Guid::parse("6a399ae0-4bc6-4de9-870b-3657f8947e7e");
    lost.type = 32;
    lost.timestamp = 1001;
    after_loss.records = {encode(lost)};
    builder.add_buffer(after_loss);
    Result<EtlReader> reader = test::open_bytes(builder.build());
    ASSERT_TRUE(reader);
    EXPECT_EQ(test::read_all(reader.value()).size(), 3u);
    const ReaderStats &s = reader.value().stats();
    EXPECT_EQ(s.events_lost_buffers, 1u);
    EXPECT_EQ(s.lost_buffers, 1u);
    EXPECT_EQ(s.lost_event_records, 1u);
    EXPECT_EQ(reader.value().logfile().events_lost, 12u);
    EXPECT_EQ(reader.value().logfile().buffers_lost, 3u);
}

} // namespace
} // namespace dtrace::etw
