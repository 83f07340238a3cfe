// utf8.h: encoding one code point as UTF-8.
//
// Wide text becomes UTF-8 in two places: the consumer's %lc/%ls and aggpack
// cells, and wstringof() in probe context; both use this one encoder.
#pragma once

#include <cstdint>
#include <string>

namespace dtrace::common {

namespace utf8_detail {

constexpr uint32_t kOneByteLimit = 0x80;
constexpr uint32_t kTwoByteLimit = 0x800;
constexpr uint32_t kThreeByteLimit = 0x10000;
constexpr uint32_t kContinuationBits = 6;
constexpr uint32_t kContinuationMask = 0x3F;
constexpr uint32_t kContinuationTag = 0x80;
constexpr uint32_t kTwoByteTag = 0xC0;
constexpr uint32_t kThreeByteTag = 0xE0;
constexpr uint32_t kFourByteTag = 0xF0;
constexpr uint32_t kFourByteLeadMask = 0x07;

inline char continuation(uint32_t cp, uint32_t shift) {
    return static_cast<char>(kContinuationTag | ((cp >> shift) & kContinuationMask));
}

} // namespace utf8_detail

// Appends one code point as UTF-8.
inline void append_utf8(std::string &out, uint32_t cp) {
    using namespace utf8_detail;
    if (cp < kOneByteLimit) {
        out += static_cast<char>(cp);
    } else if (cp < kTwoByteLimit) {
        out += static_cast<char>(kTwoByteTag | (cp >> kContinuationBits));
        out += continuation(cp, 0);
    } else if (cp < kThreeByteLimit) {
        out += static_cast<char>(kThreeByteTag | (cp >> (2 * kContinuationBits)));
        out += continuation(cp, kContinuationBits);
        out += continuation(cp, 0);
    } else {
        out += static_cast<char>(kFourByteTag | ((cp >> (3 * kContinuationBits)) & kFourByteLeadMask));
        out += continuation(cp, 2 * kContinuationBits);
        out += continuation(cp, kContinuationBits);
        out += continuation(cp, 0);
    }
}

} // namespace dtrace::common
