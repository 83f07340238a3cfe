// metadata_items.cpp: metadata rows as PROV_TRAITS and EVENT_SCHEMA_TL items (see metadata_items.h).
#include "nettrace/metadata_items.h"

#include <optional>
#include <string>

#include "reader/event_header_record.h"
#include "reader/extended_items.h"
#include "reader/le_bytes.h"

namespace dtrace::etw::nettrace {

namespace {

namespace L = extended_item_layout;

// TraceLogging InTypes (TraceLoggingProvider.h) and their flags.
namespace tl {
constexpr uint8_t kUnicodeString = 1;
constexpr uint8_t kInt8 = 3;
constexpr uint8_t kUInt8 = 4;
constexpr uint8_t kInt16 = 5;
constexpr uint8_t kUInt16 = 6;
constexpr uint8_t kInt32 = 7;
constexpr uint8_t kUInt32 = 8;
constexpr uint8_t kInt64 = 9;
constexpr uint8_t kUInt64 = 10;
constexpr uint8_t kFloat = 11;
constexpr uint8_t kDouble = 12;
constexpr uint8_t kBool32 = 13;
constexpr uint8_t kGuid = 15;
constexpr uint8_t kFileTime = 17;
constexpr uint8_t kSystemTime = 18;
constexpr uint8_t kStruct = 24;
constexpr uint8_t kConstantCount = 0x20;
constexpr uint8_t kVariableCount = 0x40;
constexpr uint8_t kOutTypeFollows = 0x80;
constexpr uint8_t kNoTags = 0;
} // namespace tl

constexpr uint32_t kV6 = 6;
constexpr size_t kMaxItemData = 0xFFFF - L::kHeaderSize - 7;

std::optional<uint8_t> scalar_in_type(uint8_t code, uint32_t format_version) {
    switch (code) {
    case type_code::kBoolean:
        return tl::kBool32;
    case type_code::kChar:
    case type_code::kUInt16:
        return tl::kUInt16;
    case type_code::kSByte:
        return tl::kInt8;
    case type_code::kByte:
    case type_code::kUtf8CodeUnit:
        return tl::kUInt8;
    case type_code::kInt16:
        return tl::kInt16;
    case type_code::kInt32:
        return tl::kInt32;
    case type_code::kUInt32:
        return tl::kUInt32;
    case type_code::kInt64:
        return tl::kInt64;
    case type_code::kUInt64:
        return tl::kUInt64;
    case type_code::kSingle:
        return tl::kFloat;
    case type_code::kDouble:
        return tl::kDouble;
    case type_code::kDateTime:
        return format_version >= kV6 ? tl::kSystemTime : tl::kFileTime;
    case type_code::kGuid:
        return tl::kGuid;
    case type_code::kString:
        return tl::kUnicodeString;
    default:
        return std::nullopt;
    }
}

void put_text(std::vector<uint8_t> &out, const std::string &text) {
    out.insert(out.end(), text.begin(), text.end());
    out.push_back(0);
}

// Appends one field's description; false for a type TraceLogging cannot say.
bool put_field(std::vector<uint8_t> &out, const MetadataField &f, uint32_t format_version) {
    const bool array = f.type == type_code::kArray || f.type == type_code::kFixedLengthArray;
    const uint8_t shape = array ? f.element_type : f.type;
    uint8_t in_type = 0;
    if (shape == type_code::kObject) {
        if (array || f.fields.size() > 0x7F) {
            return false;
        }
        in_type = tl::kStruct;
    } else if (std::optional<uint8_t> scalar = scalar_in_type(shape, format_version)) {
        in_type = *scalar;
    } else {
        return false;
    }
    put_text(out, f.name);
    if (shape == type_code::kObject) {
        out.push_back(static_cast<uint8_t>(in_type | tl::kOutTypeFollows));
        out.push_back(static_cast<uint8_t>(f.fields.size())); // the struct's field count
        for (const MetadataField &child : f.fields) {
            if (!put_field(out, child, format_version)) {
                return false;
            }
        }
        return true;
    }
    if (f.type == type_code::kArray) {
        out.push_back(static_cast<uint8_t>(in_type | tl::kVariableCount));
    } else if (f.type == type_code::kFixedLengthArray) {
        out.push_back(static_cast<uint8_t>(in_type | tl::kConstantCount));
        out.push_back(static_cast<uint8_t>(f.fixed_count));
        out.push_back(static_cast<uint8_t>(f.fixed_count >> 8));
    } else {
        out.push_back(in_type);
    }
    return true;
}

std::vector<uint8_t> schema_of(const EventMetadata &m, uint32_t format_version) {
    std::vector<uint8_t> out = {0, 0, tl::kNoTags};
    put_text(out, m.event_name);
    for (const MetadataField &f : m.fields) {
        const size_t before = out.size();
        if (!put_field(out, f, format_version)) {
            out.resize(before); // this field and those after it stay untyped
            break;
        }
    }
    out[0] = static_cast<uint8_t>(out.size());
    out[1] = static_cast<uint8_t>(out.size() >> 8);
    return out;
}

} // namespace

void append_item(std::vector<uint8_t> &chain, uint16_t type, std::span<const uint8_t> data) {
    const size_t size = align8(L::kHeaderSize + data.size());
    const size_t at = chain.size();
    chain.resize(at + size, 0);
    uint8_t *p = chain.data() + at;
    auto store16 = [](uint8_t *q, size_t v) {
        q[0] = static_cast<uint8_t>(v);
        q[1] = static_cast<uint8_t>(v >> 8);
    };
    store16(p + L::kSize, size);
    store16(p + L::kType, type);
    store16(p + L::kDataSize, data.size());
    std::copy(data.begin(), data.end(), p + L::kHeaderSize);
}

void link_items(std::vector<uint8_t> &chain) {
    for (size_t at = 0; at + L::kHeaderSize <= chain.size();) {
        const size_t size = load_u16(chain.data() + at + L::kSize);
        if (size == 0) {
            break;
        }
        const bool more = at + size < chain.size();
        chain[at + L::kLinkage] = more ? static_cast<uint8_t>(L::kLinkageMore) : 0;
        at += size;
    }
}

std::vector<uint8_t> metadata_items(const EventMetadata &m, uint32_t format_version) {
    std::vector<uint8_t> chain;
    std::string name = m.provider_name.substr(0, kMaxItemData / 2);
    std::vector<uint8_t> traits = {0, 0};
    put_text(traits, name);
    traits[0] = static_cast<uint8_t>(traits.size());
    traits[1] = static_cast<uint8_t>(traits.size() >> 8);
    append_item(chain, ext_type::kProvTraits, traits);
    if (!m.event_name.empty() || !m.fields.empty()) {
        std::vector<uint8_t> schema = schema_of(m, format_version);
        if (schema.size() <= kMaxItemData) {
            append_item(chain, ext_type::kEventSchemaTl, schema);
        }
    }
    link_items(chain);
    return chain;
}

} // namespace dtrace::etw::nettrace
