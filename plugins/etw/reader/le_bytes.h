// le_bytes.h: little-endian loads from raw bytes.
//
// Every multi-byte field of an ETL file is little-endian and most of them are
// unaligned (records start on 8-byte boundaries, but compressed buffers and the
// fields inside payloads do not). memcpy into a local is the one portable way
// to read such a field; compilers turn it into a single load.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace dtrace::etw {

template <typename T> inline T load_le(const uint8_t *p) {
    if constexpr (std::endian::native == std::endian::little) {
        T value;
        std::memcpy(&value, p, sizeof value);
        return value;
    } else {
        T value = 0;
        for (size_t i = sizeof value; i-- > 0;) {
            value = static_cast<T>(value << 8) | static_cast<T>(p[i]);
        }
        return value;
    }
}

inline uint16_t load_u16(const uint8_t *p) {
    return load_le<uint16_t>(p);
}
inline uint32_t load_u32(const uint8_t *p) {
    return load_le<uint32_t>(p);
}
inline uint64_t load_u64(const uint8_t *p) {
    return load_le<uint64_t>(p);
}
inline int32_t load_i32(const uint8_t *p) {
    return static_cast<int32_t>(load_u32(p));
}
inline int64_t load_i64(const uint8_t *p) {
    return static_cast<int64_t>(load_u64(p));
}

// ETL records and extended data items are padded to 8 bytes.
inline constexpr uint64_t align8(uint64_t n) {
    return (n + 7) & ~uint64_t{7};
}

} // namespace dtrace::etw
