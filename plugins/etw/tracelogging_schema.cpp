// tracelogging_schema.cpp: parsing EVENT_SCHEMA_TL metadata.
#include "tracelogging_schema.h"

#include <array>

#include "reader/extended_items.h"
#include "reader/le_bytes.h"

namespace dtrace::etw::plugin {

namespace {

constexpr uint8_t kChainBit = 0x80;  // another tag byte / an OutType follows
constexpr uint8_t kTypeMask = 0x1F;  // the InType proper
constexpr uint8_t kCountMask = 0x60; // how many values
constexpr uint8_t kConstantCount = 0x20;
constexpr uint8_t kVariableCount = 0x40;
constexpr uint8_t kCustom = 0x60;
constexpr size_t kSizePrefix = 2;

// TraceLogging InTypes (their low 5 bits) to TDH's; Null, Struct and
// unused numbers have none.
constexpr std::array<std::optional<InType>, 26> kTraceLoggingTypes = {std::nullopt,
                                                                      InType::UnicodeString,
                                                                      InType::AnsiString,
                                                                      InType::Int8,
                                                                      InType::UInt8,
                                                                      InType::Int16,
                                                                      InType::UInt16,
                                                                      InType::Int32,
                                                                      InType::UInt32,
                                                                      InType::Int64,
                                                                      InType::UInt64,
                                                                      InType::Float,
                                                                      InType::Double,
                                                                      InType::Boolean,
                                                                      InType::CountedBinary,
                                                                      InType::Guid,
                                                                      std::nullopt,
                                                                      InType::FileTime,
                                                                      InType::SystemTime,
                                                                      InType::Sid,
                                                                      InType::HexInt32,
                                                                      InType::HexInt64,
                                                                      InType::CountedString,
                                                                      InType::CountedAnsiString,
                                                                      std::nullopt /* Struct */,
                                                                      InType::CountedBinary};

class Cursor {
  public:
    explicit Cursor(std::span<const uint8_t> bytes) : rest_(bytes) {}
    bool empty() const { return rest_.empty(); }
    std::optional<uint8_t> byte() {
        if (rest_.empty()) {
            return std::nullopt;
        }
        uint8_t b = rest_[0];
        rest_ = rest_.subspan(1);
        return b;
    }
    std::optional<uint16_t> u16() {
        if (rest_.size() < sizeof(uint16_t)) {
            return std::nullopt;
        }
        uint16_t v = load_u16(rest_.data());
        rest_ = rest_.subspan(sizeof(uint16_t));
        return v;
    }
    bool skip(size_t n) {
        if (rest_.size() < n) {
            return false;
        }
        rest_ = rest_.subspan(n);
        return true;
    }
    // Bytes while the chain bit is set, and the last one.
    bool skip_chain() {
        for (std::optional<uint8_t> b = byte(); b; b = byte()) {
            if ((*b & kChainBit) == 0) {
                return true;
            }
        }
        return false;
    }
    std::optional<std::string_view> text() {
        for (size_t n = 0; n < rest_.size(); ++n) {
            if (rest_[n] == 0) {
                std::string_view s(reinterpret_cast<const char *>(rest_.data()), n);
                rest_ = rest_.subspan(n + 1);
                return s;
            }
        }
        return std::nullopt;
    }

  private:
    std::span<const uint8_t> rest_;
};

// The metadata's own size bounds it; then the tags and the event name.
std::optional<Cursor> after_name(std::span<const uint8_t> metadata, std::string_view &name) {
    if (metadata.size() < kSizePrefix) {
        return std::nullopt;
    }
    const size_t size = std::min<size_t>(load_u16(metadata.data()), metadata.size());
    Cursor c(metadata.first(size).subspan(kSizePrefix));
    std::optional<std::string_view> n;
    if (!c.skip_chain() || !(n = c.text())) {
        return std::nullopt;
    }
    name = *n;
    return c;
}

std::optional<ManifestField> read_field(Cursor &c) {
    std::optional<std::string_view> name = c.text();
    std::optional<uint8_t> in = c.byte();
    if (!name || !in) {
        return std::nullopt;
    }
    if ((*in & kChainBit) != 0) {
        std::optional<uint8_t> out = c.byte();
        if (!out || ((*out & kChainBit) != 0 && !c.skip_chain())) {
            return std::nullopt;
        }
    }
    ManifestField f;
    f.name = std::string(*name);
    const uint8_t low = *in & kTypeMask;
    std::optional<InType> type = low < kTraceLoggingTypes.size() ? kTraceLoggingTypes[low] : std::nullopt;
    f.type = type.value_or(InType::Null);
    f.opaque = !type;
    switch (*in & kCountMask) {
    case kConstantCount: {
        std::optional<uint16_t> count = c.u16();
        if (!count) {
            return std::nullopt;
        }
        f.is_array = true;
        f.count = *count;
        break;
    }
    case kVariableCount:
        f.is_array = true;
        f.count_in_data = true;
        break;
    case kCustom: {
        std::optional<uint16_t> info = c.u16();
        if (!info || !c.skip(*info)) {
            return std::nullopt;
        }
        f.opaque = true; // sized by a custom serializer
        break;
    }
    default:
        break;
    }
    return f;
}

} // namespace

std::optional<std::span<const uint8_t>> tracelogging_metadata(const Event &event) {
    if (event.kind != RecordKind::EventHeader || (event.flags & event_flag::kExtendedInfo) == 0) {
        return std::nullopt;
    }
    std::optional<ExtendedItem> item = find_extended_item(event, ext_type::kEventSchemaTl);
    return item ? std::optional<std::span<const uint8_t>>(item->data) : std::nullopt;
}

std::optional<std::string_view> tracelogging_event_name(std::span<const uint8_t> metadata) {
    std::string_view name;
    return after_name(metadata, name) ? std::optional<std::string_view>(name) : std::nullopt;
}

std::optional<TraceLoggingSchema> parse_tracelogging_schema(std::span<const uint8_t> metadata) {
    TraceLoggingSchema schema;
    std::optional<Cursor> c = after_name(metadata, schema.name);
    if (!c) {
        return std::nullopt;
    }
    while (!c->empty()) {
        std::optional<ManifestField> f = read_field(*c);
        if (!f) {
            return std::nullopt;
        }
        schema.fields.push_back(std::move(*f));
    }
    return schema;
}

} // namespace dtrace::etw::plugin
