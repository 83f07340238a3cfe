// guid.cpp: GUID byte layout and text form (see guid.h).
#include "reader/guid.h"

namespace dtrace::etw {

namespace {
constexpr size_t kTextLength = 36;
// Positions of the dashes in the text form.
constexpr std::array<size_t, 4> kDashes = {8, 13, 18, 23};

int hex_value(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}
} // namespace

void Guid::to_bytes(uint8_t *p) const {
    for (size_t i = 0; i < 4; ++i) {
        p[i] = static_cast<uint8_t>(data1 >> (8 * i));
    }
    for (size_t i = 0; i < 2; ++i) {
        p[kData2Offset + i] = static_cast<uint8_t>(data2 >> (8 * i));
        p[kData3Offset + i] = static_cast<uint8_t>(data3 >> (8 * i));
    }
    for (size_t i = 0; i < data4.size(); ++i) {
        p[kData4Offset + i] = data4[i];
    }
}

std::string Guid::to_string() const {
    static constexpr char kDigits[] = "0123456789abcdef";
    // The text form is the big-endian reading of data1, data2, data3, data4.
    std::array<uint8_t, kSize> be{};
    for (size_t i = 0; i < 4; ++i) {
        be[i] = static_cast<uint8_t>(data1 >> (24 - 8 * i));
    }
    be[4] = static_cast<uint8_t>(data2 >> 8);
    be[5] = static_cast<uint8_t>(data2);
    be[6] = static_cast<uint8_t>(data3 >> 8);
    be[7] = static_cast<uint8_t>(data3);
    for (size_t i = 0; i < data4.size(); ++i) {
        be[kData4Offset + i] = data4[i];
    }
    std::string text;
    text.reserve(kTextLength);
    size_t dash = 0;
    for (size_t i = 0; i < kSize; ++i) {
        if (dash < kDashes.size() && text.size() == kDashes[dash]) {
            text.push_back('-');
            ++dash;
        }
        text.push_back(kDigits[be[i] >> 4]);
        text.push_back(kDigits[be[i] & 0xF]);
    }
    return text;
}

std::optional<Guid> Guid::parse(std::string_view text) {
    if (text.size() == kTextLength + 2 && text.front() == '{' && text.back() == '}') {
        text = text.substr(1, kTextLength);
    }
    if (text.size() != kTextLength) {
        return std::nullopt;
    }
    std::array<uint8_t, kSize> be{};
    size_t nibble = 0;
    size_t dash = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        if (dash < kDashes.size() && i == kDashes[dash]) {
            if (text[i] != '-') {
                return std::nullopt;
            }
            ++dash;
            continue;
        }
        int v = hex_value(text[i]);
        if (v < 0) {
            return std::nullopt;
        }
        be[nibble / 2] = static_cast<uint8_t>(be[nibble / 2] | (v << ((nibble % 2) ? 0 : 4)));
        ++nibble;
    }
    Guid g;
    g.data1 = (uint32_t{be[0]} << 24) | (uint32_t{be[1]} << 16) | (uint32_t{be[2]} << 8) | be[3];
    g.data2 = static_cast<uint16_t>((be[4] << 8) | be[5]);
    g.data3 = static_cast<uint16_t>((be[6] << 8) | be[7]);
    for (size_t i = 0; i < g.data4.size(); ++i) {
        g.data4[i] = be[kData4Offset + i];
    }
    return g;
}

} // namespace dtrace::etw
