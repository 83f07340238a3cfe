// logfile_header.h: TRACE_LOGFILE_HEADER, the payload of a trace's first record.
//
// The first record of the first buffer is the EventTrace/Header event (hook
// 0x0000, SYSTEM header). Its payload describes the session: buffer size,
// OS version, CPU count, log file mode (circular, relogged, compressed), the
// events and buffers lost, the time zone and the clock: StartTime (FILETIME)
// at the record's own timestamp, with PerfFreq and ClockType saying how raw
// timestamps advance. The struct has natural alignment, so two pointer-sized
// fields (LoggerName, LogFileName; garbage in files) shift everything after
// them between 32- and 64-bit loggers, and 4 bytes of padding follow the time
// zone. Layout verified on real files: etw-formats.md 1.6.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "reader/result.h"

namespace dtrace::etw {

namespace logfile_layout {
// Offsets that do not depend on the pointer size.
inline constexpr size_t kBufferSize = 0x00;
inline constexpr size_t kMajorVersion = 0x04;
inline constexpr size_t kMinorVersion = 0x05;
inline constexpr size_t kSubVersion = 0x06;
inline constexpr size_t kSubMinorVersion = 0x07;
inline constexpr size_t kProviderVersion = 0x08;
inline constexpr size_t kNumberOfProcessors = 0x0C;
inline constexpr size_t kEndTime = 0x10;
inline constexpr size_t kTimerResolution = 0x18;
inline constexpr size_t kMaximumFileSize = 0x1C;
inline constexpr size_t kLogFileMode = 0x20;
inline constexpr size_t kBuffersWritten = 0x24;
inline constexpr size_t kStartBuffers = 0x28;
inline constexpr size_t kPointerSize = 0x2C;
inline constexpr size_t kEventsLost = 0x30;
inline constexpr size_t kCpuSpeedInMHz = 0x34;
inline constexpr size_t kLoggerNamePointer = 0x38;
inline constexpr size_t kTimeZoneSize = 0xAC; // TIME_ZONE_INFORMATION; Bias (i32) first

// Offsets after the two pointers.
struct Tail {
    size_t time_zone;
    size_t boot_time;
    size_t perf_freq;
    size_t start_time;
    size_t clock_type; // ReservedFlags
    size_t buffers_lost;
    size_t names; // LoggerName then LogFileName, UTF-16, NUL-terminated
};
inline constexpr Tail kTail32 = {0x40, 0xF0, 0xF8, 0x100, 0x108, 0x10C, 0x110};
inline constexpr Tail kTail64 = {0x48, 0xF8, 0x100, 0x108, 0x110, 0x114, 0x118};
} // namespace logfile_layout

namespace log_file_mode {
inline constexpr uint32_t kSequential = 0x00000001;
inline constexpr uint32_t kCircular = 0x00000002;
inline constexpr uint32_t kRelog = 0x00010000;
inline constexpr uint32_t kCompressed = 0x04000000;
} // namespace log_file_mode

namespace clock_type {
inline constexpr uint32_t kRaw = 0;
inline constexpr uint32_t kQpc = 1;
inline constexpr uint32_t kSystemTime = 2;
inline constexpr uint32_t kCpuCycles = 3;
} // namespace clock_type

struct LogfileHeader {
    uint32_t buffer_size = 0;
    uint8_t major_version = 0, minor_version = 0, sub_version = 0, sub_minor_version = 0;
    uint32_t provider_version = 0; // the OS build number
    uint32_t number_of_processors = 0;
    int64_t end_time = 0;           // FILETIME
    uint32_t timer_resolution = 0;  // 100 ns units
    uint32_t maximum_file_size = 0; // MB
    uint32_t log_file_mode = 0;
    uint32_t buffers_written = 0;
    uint32_t start_buffers = 0;
    uint32_t pointer_size = 0;
    uint32_t events_lost = 0;
    uint32_t cpu_speed_mhz = 0;
    int32_t time_zone_bias_minutes = 0; // UTC = local time + bias
    int64_t boot_time = 0;              // FILETIME
    int64_t perf_freq = 0;              // ticks per second of the QPC clock
    int64_t start_time = 0;             // FILETIME at header_timestamp
    uint32_t clock_type = 0;
    uint32_t buffers_lost = 0;
    std::string logger_name;      // UTF-8
    std::string log_file_name;    // UTF-8
    int64_t header_timestamp = 0; // raw timestamp of the header record itself
};

// Decodes the payload of the header record. pointer_size comes from the
// record's header type. The error is a fragment without file or offset.
Result<LogfileHeader> parse_logfile_header(std::span<const uint8_t> payload, uint8_t pointer_size);

} // namespace dtrace::etw
