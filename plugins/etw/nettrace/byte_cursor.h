// byte_cursor.h: bounds-checked little-endian reads from one block of a nettrace stream.
//
// Every nettrace structure lives inside a block whose size the stream states,
// and any field of it may be damaged: a size that runs past the block, a
// varuint with no last byte. The cursor reads fixed-size fields, LEB128
// varuints (the header compression and V6 rows), UTF-16 strings (V4/V5
// metadata) and length-prefixed UTF-8 strings (V6). A read past the end
// fails the cursor for good (every later read fails too and yields zero), so
// a parser checks ok() once after a group of reads instead of after each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "reader/guid.h"
#include "reader/le_bytes.h"

namespace dtrace::etw::nettrace {

class ByteCursor {
  public:
    ByteCursor() = default;
    explicit ByteCursor(std::span<const uint8_t> bytes) : bytes_(bytes) {}

    bool ok() const { return ok_; }
    size_t offset() const { return at_; }
    size_t remaining() const { return ok_ ? bytes_.size() - at_ : 0; }
    bool at_end() const { return remaining() == 0; }
    std::span<const uint8_t> rest() const { return ok_ ? bytes_.subspan(at_) : std::span<const uint8_t>{}; }

    uint8_t u8() { return take(1) ? bytes_[at_ - 1] : 0; }
    uint16_t u16() { return take(2) ? load_u16(bytes_.data() + at_ - 2) : 0; }
    uint32_t u32() { return take(4) ? load_u32(bytes_.data() + at_ - 4) : 0; }
    uint64_t u64() { return take(8) ? load_u64(bytes_.data() + at_ - 8) : 0; }
    int32_t i32() { return static_cast<int32_t>(u32()); }
    int64_t i64() { return static_cast<int64_t>(u64()); }
    Guid guid() { return take(Guid::kSize) ? Guid::from_bytes(bytes_.data() + at_ - Guid::kSize) : Guid{}; }

    // LEB128: 7 bits a byte, the high bit set on all but the last; at most
    // 10 bytes (64 bits). Inline: two per event in compressed headers.
    uint64_t varuint() {
        if (ok_ && at_ < bytes_.size() && bytes_[at_] < 0x80) { // most are one byte
            return bytes_[at_++];
        }
        uint64_t value = 0;
        for (unsigned shift = 0; shift < 64 && ok_ && at_ < bytes_.size(); shift += 7) {
            const uint8_t b = bytes_[at_++];
            value |= static_cast<uint64_t>(b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        ok_ = false;
        return 0;
    }
    uint32_t varuint32() {
        const uint64_t value = varuint();
        if (value > UINT32_MAX) {
            ok_ = false;
            return 0;
        }
        return static_cast<uint32_t>(value);
    }

    std::span<const uint8_t> bytes(size_t n) {
        return take(n) ? bytes_.subspan(at_ - n, n) : std::span<const uint8_t>{};
    }
    void skip(size_t n) { take(n); }
    // A NUL-terminated UTF-16LE string (V4/V5 metadata), as UTF-8.
    std::string utf16z();
    // A varuint32 byte count and that many bytes of UTF-8 (V6).
    std::string utf8_counted();
    // Fails the cursor (a value the caller found invalid).
    void fail() { ok_ = false; }

  private:
    bool take(size_t n) {
        if (!ok_ || n > bytes_.size() - at_) {
            ok_ = false;
            return false;
        }
        at_ += n;
        return true;
    }

    std::span<const uint8_t> bytes_;
    size_t at_ = 0;
    bool ok_ = true;
};

} // namespace dtrace::etw::nettrace
