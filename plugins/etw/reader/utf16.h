// utf16.h: UTF-16LE text from ETL files as UTF-8.
//
// Windows writes strings as NUL-terminated UTF-16LE (logger and file names in
// the logfile header, wide-string payload fields). D strings are bytes, so the
// reader hands them on as UTF-8. Unpaired surrogates become U+FFFD rather than
// an error: a damaged name must not make a trace unreadable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace dtrace::etw {

struct Utf16String {
    std::string utf8;
    // Bytes consumed, including the terminating NUL if one was found.
    size_t bytes = 0;
    bool terminated = false;
};

// Decodes up to the first NUL code unit or the end of bytes (an odd last byte
// is ignored).
Utf16String read_utf16z(std::span<const uint8_t> bytes);

// UTF-8 as UTF-16 (for writing); a malformed byte becomes U+FFFD.
std::u16string utf8_to_utf16(std::string_view utf8);

} // namespace dtrace::etw
