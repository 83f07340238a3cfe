// usdt_object.h: the object dtrace -G makes from `provider` definitions.
//
// On Linux a probe site carries its own description (the header's
// .note.stapsdt notes), so nothing in the program's objects needs
// rewriting, as Solaris's -G rewrote calls into no-ops and added DOF. What
// the program still lacks at link time is the definition of each probe's
// is-enabled semaphore, which the header only declares: this object defines
// them, two zeroed bytes each, hidden (each executable or library counts its
// own), in a writable section named `.probes` as the stapsdt convention
// places semaphores; and, in `.dtrace_usdt_types` (not loaded), each probe's
// argument types as the definition declares them, which the notes cannot
// say (they give sizes) and `dtrace -lv` shows. It is a relocatable ELF
// object for the machine dtrace runs on, written directly (no compiler or
// assembler is run).
#pragma once

#include "common/result.h"
#include "compiler/program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dtrace::cli {

// The argument types of each probe as its definition declares them, one line
// a probe: "provider<TAB>probe as written<TAB>type<TAB>type...", a type
// followed by " : translated" where the definition translates it (`probe
// q(char *) : (string)`). The object's `.dtrace_usdt_types` section holds it
// (the linker concatenates those of several objects; lines stay whole), and
// the usdt plugin reads installed provider definitions in this form
// (provider_definitions.h).
std::string usdt_types_table(const std::vector<compiler::ProviderInterface> &providers);

// The object's bytes.
std::vector<uint8_t> make_usdt_object(const std::vector<compiler::ProviderInterface> &providers);

// Checks that each object the build names (dtrace -G's operands) is an ELF
// file that can be read: the convention needs nothing from them, but a
// misspelt or missing object is the build's error to hear about.
Status check_link_objects(const std::vector<std::string> &paths);

} // namespace dtrace::cli
