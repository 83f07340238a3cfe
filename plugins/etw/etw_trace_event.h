// etw_trace_event.h: the arguments of etw_trace() as a TraceLogging event.
//
//     etw_trace(provider, guid, event, level, keyword,
//               field type, field name, value, ...)
//
// writes a TraceLogging event (etw_trace_writer.h): `provider` is the
// provider's name and `guid` its GUID ("4f50731a-89cf-4782-b3e0-dce8c90476ba"),
// `event` the event's name, `level` (0-255) and `keyword` its EVENT_DESCRIPTOR
// fields; then each field of the payload as a triple: its type (a string,
// below), its name (a string) and its value. The types, with the
// TraceLogging InType each is written as:
//
// | type                    | InType         | value                       |
// |-------------------------|----------------|-----------------------------|
// | int8 int16 int32 int64  | Int8 ... Int64 | an integer                  |
// | uint8 ... uint64        | UInt8 ...      | an integer                  |
// | hex32 hex64             | HexInt32/64    | an integer                  |
// | bool                    | Bool32         | an integer (0 or not)       |
// | string                  | AnsiString     | a string (UTF-8)            |
// | wstring                 | UnicodeString  | a string, written as UTF-16 |
//
// Integers are written at the type's width (truncated). The values come
// recorded, in order, as the SDK hands a plugin action's arguments.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <dtrace/provider.h>

#include "reader/guid.h"
#include "reader/result.h"

namespace dtrace::etw::plugin {

// etw_trace()'s prototype: five fixed arguments, then the field triples.
inline constexpr const char *kEtwTraceName = "etw_trace";
inline constexpr const char *kEtwTracePrototype = "void(string, string, string, int, uint64_t, ...)";

struct TraceLoggingField {
    std::string name;
    uint8_t in_type = 0; // TraceLogging InType
};

struct TraceLoggingEvent {
    std::string provider;
    Guid guid;
    std::string name;
    uint8_t level = 0;
    uint64_t keyword = 0;
    std::vector<TraceLoggingField> fields;
    std::vector<uint8_t> payload; // the field values, laid out as their InTypes say
};

// The event etw_trace()'s recorded arguments describe, or what is wrong
// with them ("argument #6: unknown field type 'int128'").
Result<TraceLoggingEvent> etw_trace_event(std::span<const dtrace_action_value> args);

// The EVENT_SCHEMA_TL item data (event name and fields) and the PROV_TRAITS
// item data (provider name) of an event, as TraceLoggingProvider.h lays them out.
std::vector<uint8_t> tracelogging_schema_item(const TraceLoggingEvent &event);
std::vector<uint8_t> provider_traits_item(const std::string &provider);

} // namespace dtrace::etw::plugin
