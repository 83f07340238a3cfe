// tracelogging_schema.h: the self-describing metadata of TraceLogging events.
//
// A TraceLogging event carries its own schema in an EVENT_SCHEMA_TL extended
// item: the event's name and, per field, its name and type. Their event id
// is usually 0, so they are told apart by name: the plugin registers
// etw:<guid>:<filter>:<event-name> for each name met in the file, typed from
// the schema, and decodes each event's payload with that event's own schema.
// Layout (TraceLoggingProvider.h; etw-formats.md 5.2): u16 size, tag bytes
// while the high bit is set, the name (UTF-8, NUL), then per field: name, u8
// InType (0x80: an OutType byte follows, whose 0x80 says tag bytes follow;
// InType & 0x60: 0x20 a constant count (u16) follows, 0x40 a u16 count
// precedes the values in the payload, 0x60 u16-sized custom type info
// follows).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "manifest.h"
#include "reader/event.h"

namespace dtrace::etw::plugin {

struct TraceLoggingSchema {
    std::string_view name; // into the event's extended data
    std::vector<ManifestField> fields;
};

// The EVENT_SCHEMA_TL item of an EVENT_HEADER event, if it has one.
std::optional<std::span<const uint8_t>> tracelogging_metadata(const Event &event);
// Just the event's name (cheap: fields are not parsed); nothing if malformed.
std::optional<std::string_view> tracelogging_event_name(std::span<const uint8_t> metadata);
// Name and fields; nothing if malformed. A field whose type this cannot
// decode, or a struct, is opaque (and so are the fields after it).
std::optional<TraceLoggingSchema> parse_tracelogging_schema(std::span<const uint8_t> metadata);

} // namespace dtrace::etw::plugin
