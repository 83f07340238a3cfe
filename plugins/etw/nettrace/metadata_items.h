// metadata_items.h: what a metadata row says, as the extended data items of an ETW event.
//
// The etw plugin learns a provider's name from an event's PROV_TRAITS item
// and an event's name and fields from its EVENT_SCHEMA_TL item (TraceLogging
// events describe themselves). A nettrace event is described by its
// metadata row instead; writing that row once as these two items (the
// chain Event::extended points to) lets every consumer of ETW events name
// and type nettrace events with no code of its own: `<provider>:::events`,
// `etw:<guid>:...:<event-name>` and typed args[] work on both formats.
// A third item, STACK_TRACE32/64, carries the event's stack from the stack
// blocks, as ETW carries a user stack.
//
// EventPipe type codes map to TraceLogging InTypes: integers, floats,
// Boolean (4 bytes), Guid, String (UTF-16, NUL-terminated), DateTime (V4/V5:
// a FILETIME; V6: a SYSTEMTIME), arrays (a u16 count in the payload:
// TraceLogging's variable count), V6 fixed-length arrays (a constant
// count), objects (a struct). Types TraceLogging has no form for (V6
// varints, relative and data locations, decimals) end the schema: the
// fields before them stay typed.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "nettrace/event_metadata.h"

namespace dtrace::etw::nettrace {

// The item chain for the events of a metadata row: PROV_TRAITS, then
// EVENT_SCHEMA_TL when the row names the event or its fields.
std::vector<uint8_t> metadata_items(const EventMetadata &metadata, uint32_t format_version);

// Appends one extended data item (its 8-byte header, the data, padding to 8).
void append_item(std::vector<uint8_t> &chain, uint16_t type, std::span<const uint8_t> data);

// Sets the "another item follows" linkage of every item but the last.
void link_items(std::vector<uint8_t> &chain);

} // namespace dtrace::etw::nettrace
