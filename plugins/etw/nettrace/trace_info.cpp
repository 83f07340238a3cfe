// trace_info.cpp: decoding the Trace block (see trace_info.h).
#include "nettrace/trace_info.h"

#include <cstdlib>
#include <string>

#include "nettrace/byte_cursor.h"
#include "reader/trace_clock.h"

namespace dtrace::etw::nettrace {

namespace {

constexpr size_t kSystemTimeSize = 16;
constexpr int64_t kFiletimeTicksPerMs = 10000;
constexpr int64_t kMsPerDay = 86400000;
constexpr int64_t kDaysFrom1601To1970 = 134774;
constexpr uint32_t kV6 = 6;

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
// days_from_civil algorithm).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2 ? 1 : 0;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

} // namespace

constexpr unsigned kLastSystemTimeYear = 30827;

int64_t systemtime_to_filetime(std::span<const uint8_t, 16> st) {
    ByteCursor c(st);
    const unsigned year = c.u16();
    const unsigned month = c.u16();
    c.u16(); // day of week
    const unsigned day = c.u16();
    const unsigned hour = c.u16();
    const unsigned minute = c.u16();
    const unsigned second = c.u16();
    const unsigned ms = c.u16();
    // Windows' SYSTEMTIME range: a later year overflows a 64-bit FILETIME.
    if (year < 1601 || year > kLastSystemTimeYear || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 ||
        minute > 59 || second > 60 || ms > 999) {
        return 0;
    }
    const int64_t days = days_from_civil(year, month, day) + kDaysFrom1601To1970;
    const int64_t ms_total = days * kMsPerDay + ((hour * 60 + minute) * 60 + second) * 1000 + ms;
    return ms_total * kFiletimeTicksPerMs;
}

Result<TraceInfo> parse_trace_info(std::span<const uint8_t> bytes, uint32_t format_version) {
    ByteCursor c(bytes);
    TraceInfo info;
    std::span<const uint8_t> st = c.bytes(kSystemTimeSize);
    info.sync_ticks = c.i64();
    info.tick_frequency = c.i64();
    info.pointer_size = c.u32();
    if (format_version < kV6) {
        info.process_id = c.u32();
        info.processors = c.u32();
        c.u32(); // ExpectedCPUSamplingRate
    } else {
        const uint32_t pairs = c.u32();
        for (uint32_t i = 0; i < pairs && c.ok(); ++i) {
            const std::string key = c.utf8_counted();
            const std::string value = c.utf8_counted();
            const uint32_t number = static_cast<uint32_t>(std::strtoul(value.c_str(), nullptr, 10));
            if (key == "ProcessId") {
                info.process_id = number;
            } else if (key == "HardwareThreadCount") {
                info.processors = number;
            }
        }
    }
    if (!c.ok()) {
        return Error{"the Trace block is " + std::to_string(bytes.size()) + " bytes, too short for its fields"};
    }
    info.sync_time_filetime = systemtime_to_filetime(st.first<kSystemTimeSize>());
    if (info.sync_time_filetime == 0) {
        return Error{"the Trace block's SyncTimeUTC is not a valid date"};
    }
    if (info.tick_frequency <= 0) {
        return Error{"the Trace block's tick frequency is " + std::to_string(info.tick_frequency)};
    }
    if (info.pointer_size != 4 && info.pointer_size != 8) {
        return Error{"the Trace block's pointer size is " + std::to_string(info.pointer_size) + " (not 4 or 8)"};
    }
    return info;
}

LogfileHeader as_logfile_header(const TraceInfo &info) {
    LogfileHeader header;
    header.pointer_size = info.pointer_size;
    header.number_of_processors = info.processors;
    header.perf_freq = info.tick_frequency;
    header.clock_type = clock_type::kQpc;
    header.start_time = info.sync_time_filetime;
    header.header_timestamp = info.sync_ticks;
    return header;
}

} // namespace dtrace::etw::nettrace
