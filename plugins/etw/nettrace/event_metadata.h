// event_metadata.h: the metadata rows of a nettrace stream, one per kind of event.
//
// Every event names a metadata row by id; the row gives the provider (by
// name, and in V6 optionally by GUID), the event id and name, keywords,
// level, version, opcode and the payload's fields. Two encodings:
//   V4/V5: the payload of an event row in a MetadataBlock: i32 id, UTF-16
//     provider name, i32 event id, UTF-16 event name, i64 keywords, i32
//     version, i32 level, i32 field count and fields (i32 type code, nested
//     fields for objects, UTF-16 name); V5 appends tags: OpCode (u8) and
//     V2Params (fields again, with arrays), which replace the V1 fields.
//   V6: rows of a Metadata block: varuint id, UTF-8 strings, u16-sized field
//     descriptions, and optional metadata (opcode, keywords, level, version,
//     provider GUID ...).
// The .NET runtime's own providers log no event names and no fields: their
// layouts are the CLR manifest's templates (the dnet plugin reads those).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "reader/guid.h"
#include "reader/result.h"

namespace dtrace::etw::nettrace {

// System.TypeCode values, and those V6 adds.
namespace type_code {
inline constexpr uint8_t kObject = 1;
inline constexpr uint8_t kBoolean = 3; // 4 bytes
inline constexpr uint8_t kChar = 4;    // a UTF-16 code unit
inline constexpr uint8_t kSByte = 5;
inline constexpr uint8_t kByte = 6;
inline constexpr uint8_t kInt16 = 7;
inline constexpr uint8_t kUInt16 = 8;
inline constexpr uint8_t kInt32 = 9;
inline constexpr uint8_t kUInt32 = 10;
inline constexpr uint8_t kInt64 = 11;
inline constexpr uint8_t kUInt64 = 12;
inline constexpr uint8_t kSingle = 13;
inline constexpr uint8_t kDouble = 14;
inline constexpr uint8_t kDecimal = 15;
inline constexpr uint8_t kDateTime = 16;
inline constexpr uint8_t kGuid = 17;
inline constexpr uint8_t kString = 18; // NUL-terminated UTF-16
inline constexpr uint8_t kArray = 19;  // u16 count, then the elements
inline constexpr uint8_t kVarInt = 20;
inline constexpr uint8_t kVarUInt = 21;
inline constexpr uint8_t kFixedLengthArray = 22;
inline constexpr uint8_t kUtf8CodeUnit = 23;
inline constexpr uint8_t kRelLoc = 24;
inline constexpr uint8_t kDataLoc = 25;
} // namespace type_code

struct MetadataField {
    std::string name;
    uint8_t type = 0;
    uint8_t element_type = 0;          // arrays
    uint16_t fixed_count = 0;          // V6 fixed-length arrays
    std::vector<MetadataField> fields; // objects (and arrays of them)
};

struct EventMetadata {
    uint32_t id = 0;
    std::string provider_name;
    std::optional<Guid> provider_guid; // V6 ProviderGuid, when given
    uint32_t event_id = 0;
    std::string event_name;
    uint64_t keywords = 0;
    uint8_t version = 0;
    uint8_t level = 0;
    uint8_t opcode = 0;
    std::vector<MetadataField> fields;
};

// The payload of a V4/V5 metadata event. The error is a fragment.
Result<EventMetadata> parse_metadata_v5(std::span<const uint8_t> payload);
// One V6 metadata row, its u16 size already read.
Result<EventMetadata> parse_metadata_v6(std::span<const uint8_t> row);

} // namespace dtrace::etw::nettrace
