// bytes_format.h: how DTrace prints a record that is not an integer.
//
// trace() of a string, an aggregation's string key, tracemem() and any
// struct or array all go through one routine in DTrace (dt_print_bytes): if
// the bytes look like a NUL-terminated string (printable characters, then
// only NULs) they are printed as one; if they are all printable with no NUL
// they are printed as a string too; otherwise they are dumped in hex with an
// ASCII column. The width is the column the string is padded to (negative:
// left-justified), 33 for trace() and 50 for aggregation keys.
#pragma once

#include <string>
#include <string_view>

namespace dtrace::consumer {

inline constexpr int kTraceStringWidth = -33;
inline constexpr int kAggKeyStringWidth = -50;

// `record` as DTrace prints it. `force_raw` (tracemem(), -x rawbytes) always
// dumps hex.
std::string format_bytes(std::string_view record, int width, bool quiet, bool force_raw);
// What format_bytes() prints for bytes it takes for the string `text`.
std::string format_string(std::string_view text, int width, bool quiet);

// The hex dump alone: a header row of offsets 0..f, then 16 bytes a row.
std::string format_hex_dump(std::string_view record);

} // namespace dtrace::consumer
