// utf16.cpp: UTF-16LE to UTF-8 and back (see utf16.h).
#include "reader/utf16.h"

#include "reader/le_bytes.h"

namespace dtrace::etw {

namespace {
constexpr char32_t kReplacement = 0xFFFD;
constexpr char32_t kHighSurrogateFirst = 0xD800;
constexpr char32_t kLowSurrogateFirst = 0xDC00;
constexpr char32_t kSurrogateEnd = 0xE000;
constexpr char32_t kSupplementaryBase = 0x10000;
constexpr int kSurrogateBits = 10;

void append_utf8(std::string &out, char32_t c) {
    if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (c >> 6)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (c >> 12)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (c >> 18)));
        out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
}
} // namespace

Utf16String read_utf16z(std::span<const uint8_t> bytes) {
    Utf16String result;
    size_t units = bytes.size() / 2;
    // Most text is ASCII: its run converts a byte a unit, without a check per byte.
    size_t i = 0;
    while (i < units && bytes[2 * i + 1] == 0 && bytes[2 * i] != 0 && bytes[2 * i] < 0x80) {
        ++i;
    }
    result.utf8.resize(i);
    for (size_t k = 0; k < i; ++k) {
        result.utf8[k] = static_cast<char>(bytes[2 * k]);
    }
    while (i < units) {
        char32_t c = load_u16(bytes.data() + 2 * i);
        ++i;
        if (c == 0) {
            result.terminated = true;
            break;
        }
        if (c >= kHighSurrogateFirst && c < kLowSurrogateFirst) {
            char32_t low = i < units ? load_u16(bytes.data() + 2 * i) : 0;
            if (low >= kLowSurrogateFirst && low < kSurrogateEnd) {
                ++i;
                c = kSupplementaryBase + ((c - kHighSurrogateFirst) << kSurrogateBits) + (low - kLowSurrogateFirst);
            } else {
                c = kReplacement;
            }
        } else if (c >= kLowSurrogateFirst && c < kSurrogateEnd) {
            c = kReplacement;
        }
        append_utf8(result.utf8, c);
    }
    result.bytes = 2 * i;
    return result;
}

std::u16string utf8_to_utf16(std::string_view utf8) {
    std::u16string out;
    size_t i = 0;
    while (i < utf8.size()) {
        const auto lead = static_cast<uint8_t>(utf8[i]);
        const size_t length = lead < 0x80           ? 1
                              : (lead >> 5) == 0x6  ? 2
                              : (lead >> 4) == 0xE  ? 3
                              : (lead >> 3) == 0x1E ? 4
                                                    : 0;
        char32_t c = length == 1 ? lead : length == 2 ? lead & 0x1F : length == 3 ? lead & 0x0F : lead & 0x07;
        bool valid = length != 0 && i + length <= utf8.size();
        for (size_t k = 1; valid && k < length; ++k) {
            const auto next = static_cast<uint8_t>(utf8[i + k]);
            valid = (next & 0xC0) == 0x80;
            c = (c << 6) | (next & 0x3F);
        }
        if (!valid || (c >= kHighSurrogateFirst && c < kSurrogateEnd) || c > 0x10FFFF) {
            out.push_back(static_cast<char16_t>(kReplacement));
            ++i;
            continue;
        }
        if (c >= kSupplementaryBase) {
            c -= kSupplementaryBase;
            out.push_back(static_cast<char16_t>(kHighSurrogateFirst + (c >> kSurrogateBits)));
            out.push_back(static_cast<char16_t>(kLowSurrogateFirst + (c & 0x3FF)));
        } else {
            out.push_back(static_cast<char16_t>(c));
        }
        i += length;
    }
    return out;
}

} // namespace dtrace::etw
