// time_format.cpp: %Y and %T (see time_format.h).
#include "consumer/time_format.h"

#include "consumer/cformat.h"

#include <array>
#include <ctime>

namespace dtrace::consumer {

namespace {

constexpr int64_t kNanosPerSecond = 1000000000;
constexpr int kTmYearBase = 1900;

constexpr std::array<const char *, 7> kDayNames = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
constexpr std::array<const char *, 12> kMonthNames = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

std::tm local_time(uint64_t nanoseconds) {
    const auto seconds = static_cast<std::time_t>(static_cast<int64_t>(nanoseconds) / kNanosPerSecond);
    std::tm tm{};
    if (localtime_r(&seconds, &tm) == nullptr)
        tm = std::tm{};
    return tm;
}

const char *name_at(const auto &table, int index) {
    return index >= 0 && static_cast<size_t>(index) < table.size() ? table[static_cast<size_t>(index)] : "???";
}

} // namespace

std::string format_time_y(uint64_t nanoseconds) {
    const std::tm tm = local_time(nanoseconds);
    // ctime(3C) lays the day out as %3d after the month name; DTrace keeps
    // that and moves the four-digit year to the front.
    return c_printf("%.4d %s%3d %.2d:%.2d:%.2d", tm.tm_year + kTmYearBase, name_at(kMonthNames, tm.tm_mon), tm.tm_mday,
                    tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::string format_time_rfc822(uint64_t nanoseconds) {
    const std::tm tm = local_time(nanoseconds);
    constexpr size_t kBufferSize = 64;
    char rest[kBufferSize] = {};
    if (std::strftime(rest, sizeof(rest), "%G %T %Z", &tm) == 0)
        rest[0] = '\0';
    return c_printf("%s, %.2d %s %s", name_at(kDayNames, tm.tm_wday), tm.tm_mday, name_at(kMonthNames, tm.tm_mon),
                    rest);
}

} // namespace dtrace::consumer
