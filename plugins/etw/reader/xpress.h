// xpress.h: the MS-XCA "Plain LZ77" decompressor for compressed ETL buffers.
//
// Windows 8 and later compress relogged trace files buffer by buffer
// (EVENT_TRACE_COMPRESSED_MODE) with COMPRESSION_FORMAT_XPRESS, the plain
// LZ77 variant of [MS-XCA] section 2.4 (no Huffman stage). The reader knows
// how many bytes each buffer decompresses to (its Offset field), so the
// decoder fills an output of exactly that size and treats anything else as
// damage: a match reaching before the start of the output, a match or literal
// running past its end, a length escape out of range, or input that ends
// before the output is full. It never reads or writes outside the two spans.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace dtrace::etw {

enum class XpressStatus {
    Ok,
    InputEndsEarly,    // the output is not full but the input is exhausted
    OffsetBeforeStart, // a match refers to bytes before the start of the output
    OutputOverrun,     // a match is longer than the room left in the output
    BadLength,         // a long-length escape encodes a length below its minimum
};

struct XpressResult {
    XpressStatus status = XpressStatus::Ok;
    size_t input_position = 0; // where decoding stopped (the fault, on error)
};

// Decodes input until output is exactly full.
XpressResult xpress_decompress(std::span<const uint8_t> input, std::span<uint8_t> output);

std::string_view describe(XpressStatus status);

// The encoding's constants, shared with the fixture encoder in the tests.
namespace xpress {
inline constexpr size_t kFlagBits = 32;         // one 32-bit flag word per 32 symbols
inline constexpr unsigned kMinMatch = 3;        // shortest match
inline constexpr unsigned kOffsetShift = 3;     // match word: offset-1 in the high 13 bits
inline constexpr unsigned kShortLengthMask = 7; // low 3 bits: length-3, 7 = escape
inline constexpr unsigned kNibbleEscape = 15;   // shared half byte: 15 = escape
inline constexpr unsigned kByteEscape = 255;    // extra byte: 255 = escape
// The 16/32-bit escapes hold the whole length-3, which is at least this.
inline constexpr unsigned kWideLengthMinimum = kShortLengthMask + kNibbleEscape;
inline constexpr size_t kMaxOffset = 1u << 13;
} // namespace xpress

} // namespace dtrace::etw
