// guid.h: Windows GUIDs as ETW stores them.
//
// ETW identifies providers, event classes and activities by GUID. On disk a
// GUID has the Windows memory layout (Data1 u32, Data2 u16, Data3 u16 little
// endian, then 8 bytes as they are), which is not the byte order of the text
// form; getting this wrong silently yields valid-looking but wrong GUIDs. The
// text form here is lower case without braces, as the etw probe names use it.
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "reader/le_bytes.h"

namespace dtrace::etw {

struct Guid {
    static constexpr size_t kSize = 16;
    // Where data2, data3 and data4 are in the Windows layout.
    static constexpr size_t kData2Offset = 4;
    static constexpr size_t kData3Offset = 6;
    static constexpr size_t kData4Offset = 8;

    uint32_t data1 = 0;
    uint16_t data2 = 0;
    uint16_t data3 = 0;
    std::array<uint8_t, 8> data4{};

    // Reads kSize bytes in the Windows layout (inline: EVENT_HEADER records
    // carry two GUIDs each).
    static Guid from_bytes(const uint8_t *p) {
        Guid g;
        g.data1 = load_u32(p);
        g.data2 = load_u16(p + kData2Offset);
        g.data3 = load_u16(p + kData3Offset);
        std::memcpy(g.data4.data(), p + kData4Offset, g.data4.size());
        return g;
    }
    // Writes kSize bytes in the Windows layout.
    void to_bytes(uint8_t *p) const;
    // "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower case.
    std::string to_string() const;
    // Accepts the text form, with or without braces, any case.
    static std::optional<Guid> parse(std::string_view text);

    bool is_zero() const { return *this == Guid{}; }
    auto operator<=>(const Guid &) const = default;
    // Per event on the replay path: two 8-byte compares, not a memcmp call.
    bool operator==(const Guid &other) const { return std::memcmp(this, &other, sizeof(Guid)) == 0; }
};
static_assert(sizeof(Guid) == Guid::kSize, "Guid has no padding: == compares its bytes");

struct GuidHash {
    size_t operator()(const Guid &g) const {
        uint64_t a = 0, b = 0;
        std::memcpy(&a, &g, sizeof a);
        std::memcpy(&b, reinterpret_cast<const uint8_t *>(&g) + sizeof a, sizeof b);
        uint64_t h = (a ^ (b * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL; // splitmix64's multipliers
        return static_cast<size_t>(h ^ (h >> 31));
    }
};

} // namespace dtrace::etw
