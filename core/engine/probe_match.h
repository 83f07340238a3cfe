// probe_match.h: probe descriptions (provider:module:function:name) and
// their matching against probes.
//
// A description names up to four fields separated by ':'. Which field a
// shorter description fills depends on how it was given: `-n read` names the
// probe name, `-f read` the function, `-m libc` the module, `-P syscall` the
// provider; descriptions in D programs are read like -n. Fields are filled
// from the right (`-n sys_read:entry` is function:name). An empty field, or a
// missing one, matches anything; a field with * ? [ ] is a shell glob.
#pragma once

#include "common/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dtrace::engine {

enum class SpecKind : uint8_t { Provider, Module, Function, Name };

struct ProbeDescription {
    std::string provider, module, function, name;
    uint32_t probe_id = 0; // non-zero: the description is a numeric probe id (-i 42)

    std::string to_string() const { return provider + ":" + module + ":" + function + ":" + name; }
};

// Parses a description as given with the option of `kind`. Fails when the
// text has more fields than four.
Result<ProbeDescription> parse_probe_description(std::string_view text, SpecKind kind);

// Shell-style glob (gmatch): * ? [set] [!set] [a-z] and \ escapes.
bool glob_match(std::string_view pattern, std::string_view text);

// DTrace's field rule: an empty pattern matches everything.
inline bool field_matches(std::string_view pattern, std::string_view value) {
    return pattern.empty() || glob_match(pattern, value);
}

// True when no field uses glob characters (the description names at most one probe).
bool is_exact(const ProbeDescription &desc);

} // namespace dtrace::engine
