// etw_trace_event.cpp: etw_trace()'s arguments to a TraceLogging event (see etw_trace_event.h).
#include "etw_trace_event.h"

#include <array>
#include <string_view>

#include "field_types.h"
#include "reader/utf16.h"

namespace dtrace::etw::plugin {

namespace {

constexpr size_t kFixedArgs = 5; // provider, guid, event, level, keyword
constexpr size_t kFieldArgs = 3; // type, name, value
constexpr uint64_t kMaxLevel = 0xFF;
constexpr uint8_t kNoTags = 0;

struct FieldType {
    std::string_view name;
    InType in_type; // TraceLogging numbers these as TDH does
    uint8_t width;  // bytes of an integer; 0 for strings
};

constexpr std::array<FieldType, 13> kFieldTypes = {{
    {"int8", InType::Int8, 1},
    {"uint8", InType::UInt8, 1},
    {"int16", InType::Int16, 2},
    {"uint16", InType::UInt16, 2},
    {"int32", InType::Int32, 4},
    {"uint32", InType::UInt32, 4},
    {"int64", InType::Int64, 8},
    {"uint64", InType::UInt64, 8},
    {"hex32", InType::HexInt32, 4},
    {"hex64", InType::HexInt64, 8},
    {"bool", InType::Boolean, 4},
    {"string", InType::AnsiString, 0},
    {"wstring", InType::UnicodeString, 0},
}};

std::string argument(size_t index) {
    return "argument #" + std::to_string(index + 1);
}

std::string_view text_of(const dtrace_action_value &v) {
    return std::string_view(static_cast<const char *>(v.bytes), v.size);
}

void put_le(std::vector<uint8_t> &out, uint64_t value, size_t width) {
    for (size_t i = 0; i < width; ++i) {
        out.push_back(static_cast<uint8_t>(value >> (8 * i)));
    }
}

void put_text(std::vector<uint8_t> &out, std::string_view text) {
    out.insert(out.end(), text.begin(), text.end());
    out.push_back(0);
}

// A string argument's text, or why not.
Result<std::string> string_arg(std::span<const dtrace_action_value> args, size_t i, const char *what) {
    if (args[i].kind != DTRACE_VALUE_STRING) {
        return Error{argument(i) + ": " + what + " must be a string"};
    }
    return std::string(text_of(args[i]));
}

std::optional<Error> append_value(TraceLoggingEvent &event, const FieldType &type, const dtrace_action_value &v,
                                  size_t index) {
    if (type.width != 0) {
        if (v.kind != DTRACE_VALUE_INTEGER) {
            return Error{argument(index) + ": a " + std::string(type.name) + " field needs an integer value"};
        }
        put_le(event.payload, type.in_type == InType::Boolean ? (v.integer != 0 ? 1 : 0) : v.integer, type.width);
        return std::nullopt;
    }
    if (v.kind != DTRACE_VALUE_STRING) {
        return Error{argument(index) + ": a " + std::string(type.name) + " field needs a string value"};
    }
    if (type.in_type == InType::AnsiString) {
        put_text(event.payload, text_of(v));
        return std::nullopt;
    }
    for (char16_t unit : utf8_to_utf16(text_of(v))) {
        put_le(event.payload, unit, sizeof(char16_t));
    }
    put_le(event.payload, 0, sizeof(char16_t));
    return std::nullopt;
}

} // namespace

Result<TraceLoggingEvent> etw_trace_event(std::span<const dtrace_action_value> args) {
    if (args.size() < kFixedArgs || (args.size() - kFixedArgs) % kFieldArgs != 0) {
        return Error{"takes a provider, its GUID, an event name, a level and a keyword, then a type, a name and a "
                     "value for each field (" +
                     std::to_string(args.size()) + " arguments given)"};
    }
    TraceLoggingEvent event;
    Result<std::string> provider = string_arg(args, 0, "the provider name");
    Result<std::string> guid = string_arg(args, 1, "the provider GUID");
    Result<std::string> name = string_arg(args, 2, "the event name");
    for (const Result<std::string> *r : {&provider, &guid, &name}) {
        if (!*r) {
            return Error{r->error()};
        }
    }
    if (provider.value().empty() || name.value().empty()) {
        return Error{provider.value().empty() ? "argument #1: the provider name is empty"
                                              : "argument #3: the event name is empty"};
    }
    std::optional<Guid> parsed = Guid::parse(guid.value());
    if (!parsed) {
        return Error{"argument #2: \"" + guid.value() + "\" is not a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)"};
    }
    if (args[3].kind != DTRACE_VALUE_INTEGER || args[3].integer > kMaxLevel) {
        return Error{"argument #4: the level must be an integer from 0 to 255"};
    }
    if (args[4].kind != DTRACE_VALUE_INTEGER) {
        return Error{"argument #5: the keyword must be an integer"};
    }
    event.provider = provider.value();
    event.guid = *parsed;
    event.name = name.value();
    event.level = static_cast<uint8_t>(args[3].integer);
    event.keyword = args[4].integer;
    for (size_t i = kFixedArgs; i < args.size(); i += kFieldArgs) {
        Result<std::string> type_name = string_arg(args, i, "a field type");
        Result<std::string> field_name = string_arg(args, i + 1, "a field name");
        if (!type_name || !field_name) {
            return Error{!type_name ? type_name.error() : field_name.error()};
        }
        const FieldType *type = nullptr;
        for (const FieldType &t : kFieldTypes) {
            type = t.name == type_name.value() ? &t : type;
        }
        if (type == nullptr) {
            return Error{argument(i) + ": unknown field type \"" + type_name.value() +
                         "\" (int8 ... int64, uint8 ... uint64, hex32, hex64, bool, string, wstring)"};
        }
        if (std::optional<Error> bad = append_value(event, *type, args[i + 2], i + 2)) {
            return *bad;
        }
        event.fields.push_back({field_name.value(), static_cast<uint8_t>(type->in_type)});
    }
    return event;
}

std::vector<uint8_t> tracelogging_schema_item(const TraceLoggingEvent &event) {
    std::vector<uint8_t> out(sizeof(uint16_t), 0);
    out.push_back(kNoTags);
    put_text(out, event.name);
    for (const TraceLoggingField &f : event.fields) {
        put_text(out, f.name);
        out.push_back(f.in_type);
    }
    out[0] = static_cast<uint8_t>(out.size());
    out[1] = static_cast<uint8_t>(out.size() >> 8);
    return out;
}

std::vector<uint8_t> provider_traits_item(const std::string &provider) {
    std::vector<uint8_t> out(sizeof(uint16_t), 0);
    put_text(out, provider);
    out[0] = static_cast<uint8_t>(out.size());
    out[1] = static_cast<uint8_t>(out.size() >> 8);
    return out;
}

} // namespace dtrace::etw::plugin
