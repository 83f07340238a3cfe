// logfile_clock_test.cpp: the logfile header (both pointer sizes) and the
// conversion of raw timestamps to wall time for every clock type.
#include <gtest/gtest.h>

#include <limits>

#include "etl_file_builder.h"
#include "reader/logfile_header.h"
#include "reader/trace_clock.h"
#include "sample_traces.h"
#include "test_support.h"

namespace dtrace::etw {
namespace {

using namespace fixture;
using test::open_bytes;
using test::read_bytes;

// 2022-06-18 04:26:40 UTC as FILETIME and as Unix nanoseconds.
constexpr int64_t kStartFiletime = 133000000000000000LL;
constexpr int64_t kStartUnixNs = 1655526400000000000LL;

LogfileSpec full_spec(uint8_t pointer_size) {
    LogfileSpec s;
    s.pointer_size = pointer_size;
    s.buffer_size = 0x2000;
    s.major_version = 6;
    s.minor_version = 3;
    s.sub_version = 2;
    s.sub_minor_version = 0;
    s.provider_version = 9600;
    s.number_of_processors = 12;
    s.end_time = kStartFiletime + 5000;
    s.timer_resolution = 100144;
    s.maximum_file_size = 800;
    s.log_file_mode = 0x08000002;
    s.buffers_written = 77;
    s.start_buffers = 3;
    s.events_lost = 5;
    s.cpu_speed_mhz = 2304;
    s.time_zone_bias_minutes = -120;
    s.boot_time = kStartFiletime - 1000000;
    s.perf_freq = 2500000;
    s.start_time = kStartFiletime;
    s.clock_type = 1;
    s.buffers_lost = 2;
    s.logger_name = u"solar_system";
    s.log_file_name = u"C:\\primitive-types_000004.etl";
    s.header_timestamp = 424242;
    return s;
}

class LogfileHeaderTest : public ::testing::TestWithParam<uint8_t> {};

TEST_P(LogfileHeaderTest, EveryFieldSurvivesForThisPointerSize) {
    LogfileSpec spec = full_spec(GetParam());
    EtlFileBuilder builder(spec);
    Result<EtlReader> reader = open_bytes(builder.build());
    ASSERT_TRUE(reader) << reader.error();
    const LogfileHeader &h = reader.value().logfile();
    EXPECT_EQ(h.buffer_size, 0x2000u);
    EXPECT_EQ(h.major_version, 6);
    EXPECT_EQ(h.minor_version, 3);
    EXPECT_EQ(h.sub_version, 2);
    EXPECT_EQ(h.provider_version, 9600u);
    EXPECT_EQ(h.number_of_processors, 12u);
    EXPECT_EQ(h.end_time, kStartFiletime + 5000);
    EXPECT_EQ(h.timer_resolution, 100144u);
    EXPECT_EQ(h.maximum_file_size, 800u);
    EXPECT_EQ(h.log_file_mode, 0x08000002u);
    EXPECT_EQ(h.buffers_written, 77u);
    EXPECT_EQ(h.start_buffers, 3u);
    EXPECT_EQ(h.pointer_size, GetParam());
    EXPECT_EQ(h.events_lost, 5u);
    EXPECT_EQ(h.cpu_speed_mhz, 2304u);
    EXPECT_EQ(h.time_zone_bias_minutes, -120);
    EXPECT_EQ(h.boot_time, kStartFiletime - 1000000);
    EXPECT_EQ(h.perf_freq, 2500000);
    EXPECT_EQ(h.start_time, kStartFiletime);
    EXPECT_EQ(h.clock_type, 1u);
    EXPECT_EQ(h.buffers_lost, 2u);
    EXPECT_EQ(h.logger_name, "solar_system");
    EXPECT_EQ(h.log_file_name, "C:\\primitive-types_000004.etl");
    EXPECT_EQ(h.header_timestamp, 424242);
    // The header record itself is the trace's first event.
    std::vector<test::OwnedEvent> events = test::read_all(reader.value());
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].event.pointer_size, GetParam());
    EXPECT_EQ(events[0].event.time_ns, kStartUnixNs);
}

INSTANTIATE_TEST_SUITE_P(PointerSizes, LogfileHeaderTest, ::testing::Values(uint8_t{4}, uint8_t{8}));

// The wall time of one event logged `ticks` after the header record.
int64_t event_time(LogfileSpec spec, int64_t raw) {
    EtlFileBuilder builder(spec);
    builder.add_records(0, {sample_event(1, raw, 0)});
    std::vector<test::OwnedEvent> events = read_bytes(builder.build());
    EXPECT_EQ(events.size(), 2u);
    return events.empty() ? 0 : events.back().event.time_ns;
}

TEST(TraceClock, QpcTicksAtTenMegahertz) {
    LogfileSpec spec;
    spec.start_time = kStartFiletime;
    spec.header_timestamp = 5000000;
    EXPECT_EQ(event_time(spec, 5000000 + 12345), kStartUnixNs + 1234500);
    EXPECT_EQ(event_time(spec, 5000000 - 10), kStartUnixNs - 1000); // before the header
}

TEST(TraceClock, QpcTicksAtAFrequencyThatDoesNotDivideASecond) {
    LogfileSpec spec;
    spec.start_time = kStartFiletime;
    spec.perf_freq = 3579545; // the ACPI PM timer
    spec.header_timestamp = 1000;
    // 3579545 ticks are one second; 7159090 + 1 ticks are 2 s + 279 ns.
    EXPECT_EQ(event_time(spec, 1000 + 3579545), kStartUnixNs + 1000000000);
    EXPECT_EQ(event_time(spec, 1000 + 7159091), kStartUnixNs + 2000000279);
}

TEST(TraceClock, SystemTimeStampsAreFiletimes) {
    LogfileSpec spec;
    spec.clock_type = clock_type::kSystemTime;
    spec.perf_freq = 0; // unused by this clock
    spec.header_timestamp = kStartFiletime;
    EXPECT_EQ(event_time(spec, kStartFiletime + 7), kStartUnixNs + 700);
}

TEST(TraceClock, CpuCyclesUseTheCpuSpeed) {
    LogfileSpec spec;
    spec.clock_type = clock_type::kCpuCycles;
    spec.cpu_speed_mhz = 3000;
    spec.start_time = kStartFiletime;
    spec.header_timestamp = 0;
    EXPECT_EQ(event_time(spec, 3000000000LL), kStartUnixNs + 1000000000);
    EXPECT_EQ(event_time(spec, 4500), kStartUnixNs + 1500);
}

TEST(TraceClock, SinceStartIsRelativeToTheHeaderRecord) {
    LogfileHeader h;
    h.perf_freq = 10000000;
    h.start_time = kStartFiletime;
    h.header_timestamp = 100;
    Result<TraceClock> clock = TraceClock::from_header(h);
    ASSERT_TRUE(clock);
    EXPECT_EQ(clock.value().since_start_ns(100 + 29423060), 2942306000);
    EXPECT_EQ(TraceClock::filetime_to_unix_ns(kStartFiletime), kStartUnixNs);
}

TEST(TraceClock, ExtremeTimestampsWrapInsteadOfOverflowing) {
    // Damaged files can hold any 64-bit value; the result is meaningless but
    // defined (UBSan checks this in the sanitizer build).
    for (uint32_t clock : {clock_type::kQpc, clock_type::kCpuCycles, clock_type::kSystemTime}) {
        LogfileHeader h;
        h.clock_type = clock;
        h.perf_freq = 10000000;
        h.cpu_speed_mhz = 3000;
        h.start_time = std::numeric_limits<int64_t>::min();
        h.header_timestamp = std::numeric_limits<int64_t>::min();
        Result<TraceClock> made = TraceClock::from_header(h);
        ASSERT_TRUE(made);
        for (int64_t raw : {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(), int64_t{0}}) {
            (void)made.value().to_unix_ns(raw);
            (void)made.value().since_start_ns(raw);
        }
    }
    SUCCEED();
}

TEST(TraceClock, AHeaderWithoutAFrequencyCannotBeOpened) {
    LogfileSpec spec;
    spec.perf_freq = 0;
    Result<EtlReader> reader = open_bytes(EtlFileBuilder(spec).build());
    ASSERT_FALSE(reader);
    EXPECT_NE(reader.error().find("fixture.etl: buffer at offset 0x0: "), std::string::npos) << reader.error();
    EXPECT_NE(reader.error().find("no clock frequency"), std::string::npos) << reader.error();
}

TEST(LogfileHeader, FilesWithoutOneDoNotOpen) {
    Result<EtlReader> empty = open_bytes({});
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error(), "fixture.etl: the file is empty");

    Result<EtlReader> text = open_bytes(Bytes(200, 'A'));
    ASSERT_FALSE(text);
    EXPECT_NE(text.error().find("fixture.etl: buffer at offset 0x0:"), std::string::npos) << text.error();

    // A file whose first record is an ordinary event, not the header.
    BufferSpec buffer;
    buffer.records.push_back(sample_event(1, 5, 5));
    Result<EtlReader> headless = open_bytes(encode_buffer(buffer, 0, 0x1000));
    ASSERT_FALSE(headless);
    EXPECT_NE(headless.error().find("not the trace's logfile header"), std::string::npos) << headless.error();

    // A header record too short for TRACE_LOGFILE_HEADER.
    KernelRecord stub;
    stub.payload = Bytes(40, 0);
    BufferSpec stubbed;
    stubbed.records.push_back(encode(stub));
    Result<EtlReader> short_header = open_bytes(encode_buffer(stubbed, 0, 0x1000));
    ASSERT_FALSE(short_header);
    EXPECT_NE(short_header.error().find("too short"), std::string::npos) << short_header.error();
}

TEST(LogfileHeader, MissingFilesAreNamed) {
    Result<EtlReader> reader = EtlReader::open("/nonexistent/dir/trace.etl");
    ASSERT_FALSE(reader);
    EXPECT_EQ(reader.error(), "/nonexistent/dir/trace.etl: No such file or directory");
}

} // namespace
} // namespace dtrace::etw
