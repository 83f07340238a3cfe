// logfile_header.cpp: decoding TRACE_LOGFILE_HEADER (see logfile_header.h).
#include "reader/logfile_header.h"

#include "reader/le_bytes.h"
#include "reader/utf16.h"

namespace dtrace::etw {

Result<LogfileHeader> parse_logfile_header(std::span<const uint8_t> payload, uint8_t pointer_size) {
    namespace L = logfile_layout;
    const L::Tail &tail = pointer_size == 4 ? L::kTail32 : L::kTail64;
    if (payload.size() < tail.names) {
        return Error{"the trace header record is too short (" + std::to_string(payload.size()) +
                     " bytes) for a logfile header"};
    }
    const uint8_t *p = payload.data();
    LogfileHeader h;
    h.buffer_size = load_u32(p + L::kBufferSize);
    h.major_version = p[L::kMajorVersion];
    h.minor_version = p[L::kMinorVersion];
    h.sub_version = p[L::kSubVersion];
    h.sub_minor_version = p[L::kSubMinorVersion];
    h.provider_version = load_u32(p + L::kProviderVersion);
    h.number_of_processors = load_u32(p + L::kNumberOfProcessors);
    h.end_time = load_i64(p + L::kEndTime);
    h.timer_resolution = load_u32(p + L::kTimerResolution);
    h.maximum_file_size = load_u32(p + L::kMaximumFileSize);
    h.log_file_mode = load_u32(p + L::kLogFileMode);
    h.buffers_written = load_u32(p + L::kBuffersWritten);
    h.start_buffers = load_u32(p + L::kStartBuffers);
    h.pointer_size = load_u32(p + L::kPointerSize);
    h.events_lost = load_u32(p + L::kEventsLost);
    h.cpu_speed_mhz = load_u32(p + L::kCpuSpeedInMHz);
    h.time_zone_bias_minutes = load_i32(p + tail.time_zone);
    h.boot_time = load_i64(p + tail.boot_time);
    h.perf_freq = load_i64(p + tail.perf_freq);
    h.start_time = load_i64(p + tail.start_time);
    h.clock_type = load_u32(p + tail.clock_type);
    h.buffers_lost = load_u32(p + tail.buffers_lost);
    Utf16String logger = read_utf16z(payload.subspan(tail.names));
    h.logger_name = std::move(logger.utf8);
    h.log_file_name = read_utf16z(payload.subspan(tail.names + logger.bytes)).utf8;
    return h;
}

} // namespace dtrace::etw
