// stapsdt_notes.h: the static probes an ELF file declares in its
// `.note.stapsdt` section.
//
// Each note (owner "stapsdt", type 3) describes one probe site: its address,
// the address `.stapsdt.base` had when the note was written, the address of
// its is-enabled semaphore (0: none), then the provider, the probe name and
// the argument specs (arg_spec.h) as NUL-terminated strings. The file's
// sections may have moved since (prelink): the difference between the
// `.stapsdt.base` section's address and the note's base is added to both
// addresses. Sites are then placed by file offset (through the PT_LOAD
// segment holding the address), as uprobes and the semaphores need them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "arg_spec.h"
#include "plugin_result.h"

namespace dtrace::usdt {

struct StapsdtNote {
    uint64_t pc = 0;        // link-time address of the site
    uint64_t base = 0;      // .stapsdt.base as the note recorded it
    uint64_t semaphore = 0; // link-time address; 0: none
    std::string provider, name, args;
};

// The notes of a `.note.stapsdt` section's bytes (64-bit, the machine's byte
// order); notes of other owners or types are skipped, a malformed note ends
// the list.
std::vector<StapsdtNote> parse_stapsdt_notes(std::span<const uint8_t> section);

// One probe site of a file, placed.
struct ProbeSite {
    std::string provider, name; // name as written ("gc__start")
    uint64_t address = 0;       // link-time, after the prelink adjustment
    uint64_t file_offset = 0;
    uint64_t semaphore_offset = 0; // file offset of the semaphore; 0: none
    std::vector<ArgSpec> args;
};

// One argument's types as a provider definition declares them.
struct DefinedType {
    std::string native;     // D type of argN ("char *")
    std::string translated; // D type of args[N] where the definition translates it ("string"); empty: native
    bool operator==(const DefinedType &) const = default;
};

// A definition's argument types, by "provider\tprobe as written".
using DefinitionTypes = std::map<std::string, std::vector<DefinedType>>;

// What a file says of its static probes.
struct FileProbes {
    std::vector<ProbeSite> sites;
    std::string interpreter; // PT_INTERP: the dynamic linker of an executable; empty if none
    // The argument types of its providers' definitions, where the file was
    // linked with a dtrace -G object of this dtrace (section
    // .dtrace_usdt_types), by "provider\tprobe as written".
    DefinitionTypes definition_types;
};

// The lines of a .dtrace_usdt_types section ("provider\tprobe\ttype...", a
// type followed by " : translated" where the definition translates it), by
// "provider\tprobe"; lines without both names are skipped. Installed
// definitions come in the same form (provider_definitions.h).
DefinitionTypes parse_definition_types(std::string_view text);

// The probe sites of the ELF file at `path` (none when it has no notes);
// an error when the file cannot be read as ELF.
plugin_common::Result<FileProbes> read_probe_sites(const std::string &path);

} // namespace dtrace::usdt
