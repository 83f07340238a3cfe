// trace_info.h: the Trace block, what a nettrace stream says of itself.
//
// Its SyncTimeUTC (a SYSTEMTIME) is the wall time of the tick SyncTimeTicks
// (QPC ticks on Windows, nanoseconds on Linux), TickFrequency the ticks per
// second: together the clock of every event's timestamp. PointerSize sizes
// the payloads' pointer fields and the stacks' frames. V4/V5 give the
// process id and processor count as fields, V6 as optional key/value pairs
// ("ProcessId", "HardwareThreadCount").
//
// The etw reader's consumers take a LogfileHeader and a TraceClock; the
// stream's clock is given to them in that form (a QPC clock whose start is
// the sync time), so nettrace and ETL time convert the same way.
#pragma once

#include <cstdint>
#include <span>

#include "reader/logfile_header.h"
#include "reader/result.h"

namespace dtrace::etw::nettrace {

struct TraceInfo {
    int64_t sync_time_filetime = 0; // SyncTimeUTC as a FILETIME
    int64_t sync_ticks = 0;
    int64_t tick_frequency = 0;
    uint32_t pointer_size = 8;
    uint32_t process_id = 0xFFFFFFFF;
    uint32_t processors = 0;
};

// Decodes a Trace block of format_version (4 or 6). The error is a
// fragment without file or offset.
Result<TraceInfo> parse_trace_info(std::span<const uint8_t> bytes, uint32_t format_version);

// SYSTEMTIME fields (year ... millisecond) to a FILETIME; 0 when invalid.
int64_t systemtime_to_filetime(std::span<const uint8_t, 16> systemtime);

// The trace as a logfile header: QPC clock at tick_frequency, starting at
// the sync time.
LogfileHeader as_logfile_header(const TraceInfo &info);

} // namespace dtrace::etw::nettrace
