// time_format.h: the two wall-clock renderings of printf (%Y and %T).
//
// %Y is the mdb-style "1973 Dec  3 17:20:00" that DTrace cuts out of
// ctime(3C); %T is RFC 822 as DTrace asks strftime(3C) for it (with %G, the
// ISO 8601 week-based year, where %Y was surely meant: reproduced as is).
// Both use local time (TZ) and English names regardless of locale, as the
// dtrace command, which never calls setlocale(), does.
#pragma once

#include <cstdint>
#include <string>

namespace dtrace::consumer {

// `nanoseconds` since the epoch, as DTrace's hrtime_t: a signed quantity.
std::string format_time_y(uint64_t nanoseconds);
std::string format_time_rfc822(uint64_t nanoseconds);

} // namespace dtrace::consumer
