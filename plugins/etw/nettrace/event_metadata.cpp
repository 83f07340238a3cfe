// event_metadata.cpp: decoding metadata rows (see event_metadata.h).
#include "nettrace/event_metadata.h"

#include "nettrace/byte_cursor.h"

namespace dtrace::etw::nettrace {

namespace {

// Objects nest; a hostile row must not recurse without end.
constexpr int kMaxNesting = 8;
constexpr size_t kMaxFields = 4096;

// V5 metadata tags.
constexpr uint8_t kTagOpCode = 1;
constexpr uint8_t kTagV2Params = 2;

// V6 optional metadata kinds.
namespace optional_kind {
constexpr uint8_t kOpCode = 1;
constexpr uint8_t kKeyword = 3;
constexpr uint8_t kMessageTemplate = 4;
constexpr uint8_t kDescription = 5;
constexpr uint8_t kKeyValue = 6;
constexpr uint8_t kProviderGuid = 7;
constexpr uint8_t kLevel = 8;
constexpr uint8_t kVersion = 9;
} // namespace optional_kind

bool read_v1_fields(ByteCursor &c, std::vector<MetadataField> &out, int depth);

// V1: i32 type code, nested fields for an object, then the name.
bool read_v1_field(ByteCursor &c, MetadataField &field, int depth) {
    field.type = static_cast<uint8_t>(c.u32());
    if (field.type == type_code::kObject && !read_v1_fields(c, field.fields, depth + 1)) {
        return false;
    }
    field.name = c.utf16z();
    return c.ok();
}

bool read_v1_fields(ByteCursor &c, std::vector<MetadataField> &out, int depth) {
    const uint32_t count = c.u32();
    if (!c.ok() || depth > kMaxNesting || count > kMaxFields) {
        return false;
    }
    out.resize(count);
    for (MetadataField &f : out) {
        if (!read_v1_field(c, f, depth)) {
            return false;
        }
    }
    return true;
}

bool read_v2_fields(ByteCursor &c, std::vector<MetadataField> &out, int depth);

// V2: i32 size (itself included), name, i32 type code, [i32 element type],
// nested fields for objects, padding up to the size.
bool read_v2_field(ByteCursor &c, MetadataField &field, int depth) {
    const uint32_t size = c.u32();
    if (size < sizeof(uint32_t) || size - sizeof(uint32_t) > c.remaining()) {
        return false;
    }
    ByteCursor f(c.bytes(size - sizeof(uint32_t)));
    field.name = f.utf16z();
    field.type = static_cast<uint8_t>(f.u32());
    const bool array = field.type == type_code::kArray;
    if (array) {
        field.element_type = static_cast<uint8_t>(f.u32());
    }
    const uint8_t shape = array ? field.element_type : field.type;
    if (shape == type_code::kObject && !read_v2_fields(f, field.fields, depth + 1)) {
        return false;
    }
    return f.ok();
}

bool read_v2_fields(ByteCursor &c, std::vector<MetadataField> &out, int depth) {
    const uint32_t count = c.u32();
    if (!c.ok() || depth > kMaxNesting || count > kMaxFields) {
        return false;
    }
    out.resize(count);
    for (MetadataField &f : out) {
        if (!read_v2_field(c, f, depth)) {
            return false;
        }
    }
    return true;
}

bool read_v6_fields(ByteCursor &c, std::vector<MetadataField> &out, int depth);

// A V6 type: code, [element type], [u16 count], [object fields].
bool read_v6_type(ByteCursor &c, MetadataField &field, bool element, int depth) {
    if (depth > kMaxNesting) {
        return false;
    }
    const uint8_t code = c.u8();
    if (element) {
        field.element_type = code;
    } else {
        field.type = code;
    }
    switch (code) {
    case type_code::kArray:
    case type_code::kFixedLengthArray:
    case type_code::kRelLoc:
    case type_code::kDataLoc:
        if (element || !read_v6_type(c, field, true, depth + 1)) {
            return false; // arrays of arrays: not in any writer, not read here
        }
        if (code == type_code::kFixedLengthArray) {
            field.fixed_count = c.u16();
        }
        return c.ok();
    case type_code::kObject:
        return read_v6_fields(c, field.fields, depth + 1);
    default:
        return c.ok();
    }
}

bool read_v6_fields(ByteCursor &c, std::vector<MetadataField> &out, int depth) {
    const uint16_t count = c.u16();
    if (!c.ok() || depth > kMaxNesting) {
        return false;
    }
    out.resize(count);
    for (MetadataField &field : out) {
        const uint16_t size = c.u16();
        ByteCursor f(c.bytes(size));
        field.name = f.utf8_counted();
        if (!c.ok() || !read_v6_type(f, field, false, depth)) {
            return false;
        }
    }
    return true;
}

void read_v6_optional(ByteCursor &c, EventMetadata &m) {
    const uint16_t size = c.u16();
    ByteCursor o(c.bytes(size));
    while (o.ok() && !o.at_end()) {
        switch (o.u8()) {
        case optional_kind::kOpCode:
            m.opcode = o.u8();
            break;
        case optional_kind::kKeyword:
            m.keywords = o.u64();
            break;
        case optional_kind::kMessageTemplate:
        case optional_kind::kDescription:
            o.utf8_counted();
            break;
        case optional_kind::kKeyValue:
            o.utf8_counted();
            o.utf8_counted();
            break;
        case optional_kind::kProviderGuid: {
            const Guid guid = o.guid();
            if (o.ok()) {
                m.provider_guid = guid;
            }
            break;
        }
        case optional_kind::kLevel:
            m.level = o.u8();
            break;
        case optional_kind::kVersion:
            m.version = o.u8();
            break;
        default:
            return; // an unknown kind: its size is unknown, the rest is unread
        }
    }
}

} // namespace

Result<EventMetadata> parse_metadata_v5(std::span<const uint8_t> payload) {
    ByteCursor c(payload);
    EventMetadata m;
    m.id = c.u32();
    m.provider_name = c.utf16z();
    m.event_id = c.u32();
    m.event_name = c.utf16z();
    m.keywords = c.u64();
    m.version = static_cast<uint8_t>(c.u32());
    m.level = static_cast<uint8_t>(c.u32());
    if (!c.ok()) {
        return Error{"a metadata event too short for its header"};
    }
    if (!read_v1_fields(c, m.fields, 0)) {
        return Error{"metadata " + std::to_string(m.id) + " (" + m.provider_name + " event " +
                     std::to_string(m.event_id) + "): its field descriptions are malformed"};
    }
    // V5 tags: i32 size, u8 kind, the tag's bytes.
    while (c.remaining() >= sizeof(uint32_t) + 1) {
        const uint32_t size = c.u32();
        const uint8_t kind = c.u8();
        ByteCursor tag(c.bytes(size));
        if (!c.ok()) {
            break;
        }
        if (kind == kTagOpCode) {
            m.opcode = tag.u8();
        } else if (kind == kTagV2Params) {
            m.fields.clear();
            if (!read_v2_fields(tag, m.fields, 0)) {
                return Error{"metadata " + std::to_string(m.id) + " (" + m.provider_name + " event " +
                             std::to_string(m.event_id) + "): its V2 field descriptions are malformed"};
            }
        }
    }
    return m;
}

Result<EventMetadata> parse_metadata_v6(std::span<const uint8_t> row) {
    ByteCursor c(row);
    EventMetadata m;
    m.id = c.varuint32();
    m.provider_name = c.utf8_counted();
    m.event_id = c.varuint32();
    m.event_name = c.utf8_counted();
    if (!c.ok()) {
        return Error{"a metadata row too short for its header"};
    }
    if (!read_v6_fields(c, m.fields, 0)) {
        return Error{"metadata " + std::to_string(m.id) + " (" + m.provider_name + " event " +
                     std::to_string(m.event_id) + "): its field descriptions are malformed"};
    }
    read_v6_optional(c, m);
    return m;
}

} // namespace dtrace::etw::nettrace
