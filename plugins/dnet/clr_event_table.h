// clr_event_table.h: the .NET runtime's events and payload templates, as the
// CLR manifest (ClrEtwAll.man) declares them.
//
// The dnet probes decode each event's payload with the template of the
// event's own version (fields end to end, pointers of the trace's size), so
// they need, for every (provider, id, version), the template's fields: name,
// in-type and the count or length that sizes an array or a string. The
// manifest is not ours to ship, so scripts/gen_dnet_event_table.py extracts
// those facts from it into clr_event_table.cpp, which is checked in;
// tests/unit/dnet regenerates it from the manifest, when there is one at
// ../shared/data/manifests, and compares. Covered: the DotNETRuntime and
// DotNETRuntimeRundown providers, every event and version.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace dtrace::dnet {

enum class ClrProvider : uint8_t { Runtime, Rundown };

// A template's field. A struct field is followed by its `members` member
// rows. count and length: "" (none), a number, or the name of an earlier
// field of the template that holds it.
struct ClrTemplateField {
    std::string_view name;
    std::string_view in_type; // "win:UInt32" ... or "struct"
    std::string_view count;
    std::string_view length;
    uint8_t members = 0;
};

struct ClrTemplate {
    std::string_view name;
    uint16_t first_field = 0; // index into clr_template_fields()
    uint16_t field_rows = 0;  // rows, struct members included
};

inline constexpr uint16_t kNoTemplate = 0xFFFF; // an event without payload

struct ClrEvent {
    ClrProvider provider;
    uint16_t id = 0;
    uint8_t version = 0;
    uint8_t level = 0;
    uint64_t keywords = 0;
    std::string_view symbol;
    uint16_t template_index = kNoTemplate; // into clr_templates()
};

struct ClrProviderInfo {
    ClrProvider provider;
    std::string_view name;
    std::string_view guid; // as the manifest writes it, braces removed, lower case
};

std::span<const ClrProviderInfo> clr_providers();
std::span<const ClrEvent> clr_events();
std::span<const ClrTemplate> clr_templates();
std::span<const ClrTemplateField> clr_template_fields();

} // namespace dtrace::dnet
