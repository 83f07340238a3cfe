// provider_guid.cpp: provider GUIDs by name, SHA-1 (see provider_guid.h).
#include "nettrace/provider_guid.h"

#include <bit>
#include <vector>

#include "reader/utf16.h"

namespace dtrace::etw::nettrace {

namespace {

struct RuntimeProvider {
    std::string_view name;
    std::string_view guid;
};

// The runtime's providers, whose GUIDs are not derived from their names
// (ClrEtwAll.man; SampleProfiler's from the runtime's sources, etw-formats.md 4.1).
constexpr std::array<RuntimeProvider, 5> kRuntimeProviders = {{
    {"Microsoft-Windows-DotNETRuntime", "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"},
    {"Microsoft-Windows-DotNETRuntimeRundown", "a669021c-c450-4609-a035-5af59af4df18"},
    {"Microsoft-Windows-DotNETRuntimePrivate", "763fd754-7086-4dfe-95eb-c01a46faf4ca"},
    {"Microsoft-Windows-DotNETRuntimeStress", "cc2bcbba-16b6-4cf3-8990-d74c2e8af500"},
    {"Microsoft-DotNETCore-SampleProfiler", "3c530d44-97ae-513a-1e6d-783e8f8e03a9"},
}};

// EventSource's namespace GUID 482C2DB2-C390-47C8-87F8-1A15BFC130FB, as bytes in text order.
constexpr std::array<uint8_t, 16> kEventSourceNamespace = {0x48, 0x2C, 0x2D, 0xB2, 0xC3, 0x90, 0x47, 0xC8,
                                                           0x87, 0xF8, 0x1A, 0x15, 0xBF, 0xC1, 0x30, 0xFB};

constexpr std::array<uint32_t, 4> kSha1RoundConstants = {0x5A827999, 0x6ED9EBA1, 0x8F1BBCDC, 0xCA62C1D6};
constexpr size_t kSha1Block = 64;

char ascii_upper(char c) {
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

} // namespace

std::array<uint8_t, 20> sha1(std::span<const uint8_t> bytes) {
    std::array<uint32_t, 5> h = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    std::vector<uint8_t> message(bytes.begin(), bytes.end());
    const uint64_t bit_length = static_cast<uint64_t>(bytes.size()) * 8;
    message.push_back(0x80);
    while (message.size() % kSha1Block != kSha1Block - 8) {
        message.push_back(0);
    }
    for (int i = 7; i >= 0; --i) {
        message.push_back(static_cast<uint8_t>(bit_length >> (i * 8)));
    }
    for (size_t block = 0; block < message.size(); block += kSha1Block) {
        std::array<uint32_t, 80> w{};
        for (size_t i = 0; i < 16; ++i) {
            const uint8_t *p = message.data() + block + i * 4;
            w[i] = static_cast<uint32_t>(p[0]) << 24 | static_cast<uint32_t>(p[1]) << 16 |
                   static_cast<uint32_t>(p[2]) << 8 | p[3];
        }
        for (size_t i = 16; i < 80; ++i) {
            w[i] = std::rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
        for (size_t i = 0; i < 80; ++i) {
            uint32_t f = 0;
            if (i < 20) {
                f = (b & c) | (~b & d);
            } else if (i < 40 || i >= 60) {
                f = b ^ c ^ d;
            } else {
                f = (b & c) | (b & d) | (c & d);
            }
            const uint32_t t = std::rotl(a, 5) + f + e + kSha1RoundConstants[i / 20] + w[i];
            e = d;
            d = c;
            c = std::rotl(b, 30);
            b = a;
            a = t;
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
    }
    std::array<uint8_t, 20> digest{};
    for (size_t i = 0; i < digest.size(); ++i) {
        digest[i] = static_cast<uint8_t>(h[i / 4] >> (24 - 8 * (i % 4)));
    }
    return digest;
}

Guid eventsource_guid(std::string_view name) {
    std::vector<uint8_t> input(kEventSourceNamespace.begin(), kEventSourceNamespace.end());
    std::string upper(name);
    for (char &ch : upper) {
        ch = ascii_upper(ch);
    }
    for (char16_t unit : utf8_to_utf16(upper)) { // UTF-16 big-endian
        input.push_back(static_cast<uint8_t>(unit >> 8));
        input.push_back(static_cast<uint8_t>(unit));
    }
    std::array<uint8_t, 20> hash = sha1(input);
    hash[7] = static_cast<uint8_t>((hash[7] & 0x0F) | 0x50); // version 5
    return Guid::from_bytes(hash.data());
}

Guid provider_guid_of(std::string_view name) {
    for (const RuntimeProvider &p : kRuntimeProviders) {
        if (p.name == name) {
            return *Guid::parse(p.guid);
        }
    }
    return eventsource_guid(name);
}

} // namespace dtrace::etw::nettrace
