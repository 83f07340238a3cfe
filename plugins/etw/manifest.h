// manifest.h: ETW instrumentation manifests, as far as replay needs them.
//
// A manifest (.man, the XML that `wevtutil im` registers and that dotnet's
// ClrEtwAll.man is) names a provider, its keywords, and for each event (id,
// version) the level, opcode, task, keywords and the template that lays out
// its payload. A trace carries none of that, so `-x etwmanifest=PATH` hands
// manifests to the plugin: they name providers (<name>:::events), keywords
// (<name>:::<keyword>), and type and decode args[] of etw probes. Only what
// that needs is kept, with the names of value maps and bitmaps (their
// messages, from the manifest's string table); other messages and channels
// are not.
// Schema: the <instrumentationManifest> of winmeta.xml's world
// (etw-formats.md 5.1).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "field_types.h"
#include "reader/guid.h"
#include "reader/result.h"

namespace dtrace::etw::plugin {

// A <valueMap> (a value, a name) or <bitMap> (each set bit, a name).
struct ManifestMap {
    bool is_bitmap = false;
    std::vector<std::pair<uint64_t, std::string>> entries; // in the manifest's order
};

// The name a map gives a value, as TDH formats it: a value map's entry, a
// bitmap's names of the bits set, joined by '|' (bits no entry names
// follow in hex); a value the map does not name is its number.
std::string map_value_name(const ManifestMap &map, uint64_t value);

struct ManifestField {
    std::string name;
    InType type = InType::Null;
    // Array fields: a fixed element count or the index of an earlier field
    // holding it. Length: code units of a string or bytes of a Binary, fixed
    // or from an earlier field.
    uint32_t count = 1;
    std::optional<size_t> count_field;
    uint32_t length = 0;
    std::optional<size_t> length_field;
    bool is_array = false;
    bool count_in_data = false; // the count is a u16 before the elements (TraceLogging)
    // An integer field with a value map or bitmap: args[i] is the name.
    std::shared_ptr<const ManifestMap> map;
    // A <struct>: its fields, laid out end to end (count: that many structs).
    bool is_struct = false;
    std::vector<ManifestField> members;
    // A type payload decoding does not know, or a count or length naming no
    // earlier field: its size is unknown, so neither it nor any field after
    // it is decoded.
    bool opaque = false;
};

struct ManifestEvent {
    uint16_t id = 0;
    uint8_t version = 0;
    uint8_t level = 0;
    uint8_t opcode = 0;
    uint16_t task = 0;
    uint64_t keywords = 0;
    std::string name; // the event's symbol
    std::vector<ManifestField> fields;
};

struct ManifestKeyword {
    std::string name;
    uint64_t mask = 0;
};

struct ManifestProvider {
    std::string name;
    Guid guid;
    std::vector<ManifestKeyword> keywords;
    std::vector<ManifestEvent> events;
};

// Parses one manifest file. The error names the file and, for XML and
// schema errors, the line.
Result<std::vector<ManifestProvider>> parse_manifest_file(const std::string &path);
// The same over text in memory; name is used in messages.
Result<std::vector<ManifestProvider>> parse_manifest_text(const std::string &text, const std::string &name);

} // namespace dtrace::etw::plugin
