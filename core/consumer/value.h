// value.h: the plain data the engine hands to the consumer for printing.
//
// DTrace's consumer reads typed records out of a buffer: an integer record is
// 1, 2, 4 or 8 bytes, a string record is strsize bytes (the string, then NUL
// padding), anything else is raw bytes. Every formatting rule keys off that
// record size, so a Value keeps it: the engine copies what the probe recorded,
// the consumer decides how it looks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace dtrace::consumer {

struct Value {
    enum class Kind : uint8_t {
        Integer,
        String,
        Bytes,
        Stack,     // stack(): `bytes` holds 64-bit program counters, 0-terminated or full
        UserStack, // ustack(): `bytes` holds the 64-bit pid, then 64-bit program counters
    };

    // sym(), mod(), usym(), umod(), uaddr() (and func(), ufunc()): the value
    // is an address to print by name. Sym and Mod are 8-byte integers; the
    // user ones are 16 bytes of Bytes, the pid and then the address.
    enum class Symbolic : uint8_t { None, Sym, Mod, USym, UMod, UAddr };

    Kind kind = Kind::Integer;
    // Integer: the D type's size (1, 2, 4 or 8).
    // String: the size of the recorded field (strsize), which is at least
    //         bytes.size() + 1 when the string was NUL-terminated; 0 means
    //         "exactly the string and its NUL".
    // Bytes, Stack, UserStack: ignored (bytes.size() is the record size).
    uint32_t size = 8;
    bool is_signed = true; // Integer only
    uint64_t bits = 0;     // Integer: the value, zero- or sign-extension irrelevant
    std::string bytes;     // String: without NUL; Bytes: raw (a struct, an array)
    Symbolic symbolic = Symbolic::None;

    static Value integer(uint64_t bits, uint32_t size = 8, bool is_signed = true) {
        return Value{Kind::Integer, size, is_signed, bits, {}};
    }
    static Value string(std::string_view text, uint32_t field_size = 0) {
        return Value{Kind::String, field_size, false, 0, std::string(text)};
    }
    static Value raw(std::string_view data) {
        return Value{Kind::Bytes, static_cast<uint32_t>(data.size()), false, 0, std::string(data)};
    }
    static Value stack(std::span<const uint64_t> pcs);
    static Value user_stack(uint64_t pid, std::span<const uint64_t> pcs);

    // The bytes DTrace would have recorded for this value (integers in host
    // byte order, strings NUL-padded to their field size).
    std::string record() const;
    size_t record_size() const;
    // The integer truncated to `size` bytes, then sign- or zero-extended.
    int64_t as_signed() const;
    uint64_t as_unsigned() const;

    // Of a usym(), umod() or uaddr() value: its process id and address.
    struct UserAddress {
        uint64_t pid = 0;
        uint64_t address = 0;
    };
    std::optional<UserAddress> user_address() const;
};

} // namespace dtrace::consumer
