// payload_decoder.h: an event's payload split into its fields' values.
//
// ETW payloads are fields end to end, little-endian, without padding
// (etw-formats.md 5.1); where a field starts depends on the sizes of all the
// fields before it (strings up to their NUL, arrays and lengths sized by
// earlier fields, pointers by the logger's bitness). Decoding walks them in
// order and yields, per field, the 64-bit value args[i] carries: the integer
// itself, or for strings, GUIDs, SIDs, binary data, arrays, structs and the
// names of mapped values (manifest.h) an offset into one byte buffer holding
// their bytes (strings converted to UTF-8 and NUL-terminated), to be turned
// into addresses once that buffer is readable.
// A field the payload is too short for, or that follows one whose size is
// unknown, is absent and reads as 0.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "manifest.h"

namespace dtrace::etw::plugin {

struct DecodedField {
    uint64_t value = 0;
    bool present = false;
    bool by_address = false; // value is an offset into DecodedPayload::bytes
};

struct DecodedPayload {
    std::vector<DecodedField> fields;
    std::vector<uint8_t> bytes;
};

// Decodes into out, reusing its storage; pointer_size is 4 or 8.
void decode_payload(std::span<const uint8_t> payload, std::span<const ManifestField> fields, uint8_t pointer_size,
                    DecodedPayload &out);

// The D type of args[i] for a field; nothing for a field payload decoding
// cannot locate (an unknown type, a count naming no field), whose args[i]
// and the later ones have no D type (kUndecodedFieldType).
std::optional<std::string_view> field_d_type(const ManifestField &field);
// What -lv shows as their type; it names no D type, so a script that reads
// them fails to compile ("failed to resolve native type for args[i]")
// instead of reading a wrong value.
inline constexpr const char *kUndecodedFieldType = "<no D type: the field's size is unknown>";

} // namespace dtrace::etw::plugin
