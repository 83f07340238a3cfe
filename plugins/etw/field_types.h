// field_types.h: the ETW field types (InType) payload decoding knows.
//
// Manifests name a field's type ("win:UInt32"), TraceLogging metadata and
// TRACE_EVENT_INFO number it (8); both mean the same TDH InType, and its
// size in the payload (fixed, pointer-sized, or up to a NUL) decides where
// the next field starts. Each type also has the D type its value has as
// args[i]: integers as themselves, strings, GUIDs, SIDs, SYSTEMTIMEs and
// arrays as the address of their bytes (strings made UTF-8 and
// NUL-terminated), a uintptr_t that copyin()/copyinstr() read (it is the
// replayed event's memory, not the kernel's). Values: winmeta.xml and tdh.h
// (etw-formats.md 5.1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace dtrace::etw::plugin {

enum class InType : uint16_t {
    Null = 0,
    UnicodeString = 1,
    AnsiString = 2,
    Int8 = 3,
    UInt8 = 4,
    Int16 = 5,
    UInt16 = 6,
    Int32 = 7,
    UInt32 = 8,
    Int64 = 9,
    UInt64 = 10,
    Float = 11,
    Double = 12,
    Boolean = 13, // 4 bytes
    Binary = 14,  // length from the manifest
    Guid = 15,
    Pointer = 16,
    FileTime = 17,
    SystemTime = 18,
    Sid = 19,
    HexInt32 = 20,
    HexInt64 = 21,
    CountedString = 300,     // u16 byte count, then UTF-16
    CountedAnsiString = 301, // u16 byte count, then bytes
    UnicodeChar = 306,
    AnsiChar = 307,
    SizeT = 308, // pointer-sized
    HexDump = 309,
    // TraceLogging's binary (its InTypes 14 and 25): a u16 byte count, then
    // the bytes. TDH has no number for it; this one is ours.
    CountedBinary = 400,
};

// "win:UInt32", "trace:SizeT" ...; nothing for a name it does not know.
std::optional<InType> in_type_from_name(std::string_view name);

// How a value of the type is laid out in a payload.
enum class Layout : uint8_t {
    Fixed,           // fixed_size bytes (pointer-sized types: the logger's pointer size)
    Utf16z,          // UTF-16, NUL-terminated (or `length` code units)
    Ansiz,           // bytes, NUL-terminated (or `length` bytes)
    Counted16,       // u16 byte count, then UTF-16
    CountedAnsi,     // u16 byte count, then bytes
    CountedBytes,    // u16 byte count, then bytes (binary)
    LengthBytes,     // `length` bytes (Binary)
    Sid,             // 8 bytes + 4 per sub-authority
    U32CountedBytes, // u32 count, then bytes (HexDump)
};

struct TypeInfo {
    Layout layout = Layout::Fixed;
    size_t fixed_size = 0;   // Fixed: bytes, 0 for pointer-sized
    bool is_signed = false;  // integers: sign-extend into the 64-bit argument
    bool by_address = false; // args[i] is the address of the value's bytes
    std::string_view d_type; // the D type of args[i]
};

// nullptr for a type payload decoding does not handle (the fields after it
// cannot be located).
const TypeInfo *type_info(InType type);

} // namespace dtrace::etw::plugin
