// xpress.cpp: MS-XCA plain LZ77 decoding with strict bounds (see xpress.h).
//
// Stream layout: a little-endian 32-bit flag word whose bits, from the most
// significant down, say for each of the next 32 symbols whether it is a
// literal byte (0) or a match (1). A match is a 16-bit word: offset-1 in the
// high 13 bits, length-3 in the low 3. Length 7 escapes to a half byte shared
// by two consecutive escaped matches (low nibble first), 15 there escapes to a
// byte, 255 there to a 16-bit length, and 0 there to a 32-bit length; the
// wide forms hold length-3 directly.
#include "reader/xpress.h"

#include <cstring>

#include "reader/le_bytes.h"

namespace dtrace::etw {

namespace {

// A cursor over the compressed input that refuses to read past its end.
class Input {
  public:
    explicit Input(std::span<const uint8_t> bytes) : bytes_(bytes) {}

    bool has(size_t n) const { return bytes_.size() - pos_ >= n; }
    size_t position() const { return pos_; }
    uint8_t u8() { return bytes_[pos_++]; }
    uint16_t u16() {
        uint16_t v = load_u16(bytes_.data() + pos_);
        pos_ += 2;
        return v;
    }
    uint32_t u32() {
        uint32_t v = load_u32(bytes_.data() + pos_);
        pos_ += 4;
        return v;
    }
    uint8_t at(size_t pos) const { return bytes_[pos]; }

  private:
    std::span<const uint8_t> bytes_;
    size_t pos_ = 0;
};

// Decodes the length escapes after a short length of 7; returns length-3 or
// nothing on bad input. half_byte remembers the input position of a half-used
// shared nibble byte (0: none; position 0 is always the first flag word, so it
// can never hold a nibble).
bool read_long_length(Input &in, size_t &half_byte, uint64_t &length, XpressStatus &status) {
    uint64_t nibble;
    if (half_byte == 0) {
        if (!in.has(1)) {
            status = XpressStatus::InputEndsEarly;
            return false;
        }
        half_byte = in.position();
        nibble = in.u8() & 0xF;
    } else {
        nibble = in.at(half_byte) >> 4;
        half_byte = 0;
    }
    length = xpress::kShortLengthMask + nibble;
    if (nibble < xpress::kNibbleEscape) {
        return true;
    }
    if (!in.has(1)) {
        status = XpressStatus::InputEndsEarly;
        return false;
    }
    uint64_t extra = in.u8();
    length = xpress::kWideLengthMinimum + extra;
    if (extra < xpress::kByteEscape) {
        return true;
    }
    if (!in.has(2)) {
        status = XpressStatus::InputEndsEarly;
        return false;
    }
    length = in.u16();
    if (length == 0) {
        if (!in.has(4)) {
            status = XpressStatus::InputEndsEarly;
            return false;
        }
        length = in.u32();
    }
    if (length < xpress::kWideLengthMinimum) {
        status = XpressStatus::BadLength;
        return false;
    }
    return true;
}

} // namespace

XpressResult xpress_decompress(std::span<const uint8_t> input, std::span<uint8_t> output) {
    Input in(input);
    uint8_t *out = output.data();
    const size_t out_size = output.size();
    size_t out_pos = 0;
    size_t half_byte = 0;
    uint32_t flags = 0;
    size_t flags_left = 0;

    while (out_pos < out_size) {
        if (flags_left == 0) {
            if (!in.has(4)) {
                return {XpressStatus::InputEndsEarly, in.position()};
            }
            flags = in.u32();
            flags_left = xpress::kFlagBits;
        }
        --flags_left;
        if (((flags >> flags_left) & 1) == 0) {
            if (!in.has(1)) {
                return {XpressStatus::InputEndsEarly, in.position()};
            }
            out[out_pos++] = in.u8();
            continue;
        }
        size_t match_at = in.position();
        if (!in.has(2)) {
            return {XpressStatus::InputEndsEarly, match_at};
        }
        uint16_t word = in.u16();
        size_t offset = (word >> xpress::kOffsetShift) + 1;
        uint64_t length = word & xpress::kShortLengthMask;
        if (length == xpress::kShortLengthMask) {
            XpressStatus status = XpressStatus::Ok;
            if (!read_long_length(in, half_byte, length, status)) {
                return {status, match_at};
            }
        }
        length += xpress::kMinMatch;
        if (offset > out_pos) {
            return {XpressStatus::OffsetBeforeStart, match_at};
        }
        if (length > out_size - out_pos) {
            return {XpressStatus::OutputOverrun, match_at};
        }
        uint8_t *dst = out + out_pos;
        const uint8_t *src = dst - offset;
        if (offset >= length) {
            std::memcpy(dst, src, length);
        } else {
            // Overlapping copy: each byte may be one this match just wrote.
            for (uint64_t i = 0; i < length; ++i) {
                dst[i] = src[i];
            }
        }
        out_pos += length;
    }
    return {XpressStatus::Ok, in.position()};
}

std::string_view describe(XpressStatus status) {
    switch (status) {
    case XpressStatus::Ok:
        return "ok";
    case XpressStatus::InputEndsEarly:
        return "compressed data ends before the buffer is complete";
    case XpressStatus::OffsetBeforeStart:
        return "a match refers to data before the start of the buffer";
    case XpressStatus::OutputOverrun:
        return "a match runs past the end of the buffer";
    case XpressStatus::BadLength:
        return "a match length escape is out of range";
    }
    return "unknown XPRESS error";
}

} // namespace dtrace::etw
