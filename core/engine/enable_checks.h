// enable_checks.h: what tracing refuses to start with, as dtrace_go() does.
//
//   a destructive action without -w (option destructive)
//       "Destructive actions not allowed"
//   raise() or stop() while replaying a trace (no live process to act on)
//   copyout() or copyoutstr(), even with -w: no provider can write to a
//   traced process
//   bufpolicy=fill with END clauses whose records cannot fit the buffer
//       "END enablings exceed size of principal buffer"
//   a clause whose record cannot fit the principal buffer (or, when the
//   program speculates, a speculative buffer)
//       "Enabling exceeds size of buffer"
#pragma once

#include "engine/engine.h"
#include "engine/resource_sizing.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dtrace::engine {

// DTrace's dtrace_statvar_maxsize: a global or clause-local variable held by
// reference (a string, at strsize bytes; a struct; an array) may take at
// most 16 KB. A program with a larger one fails to enable: "DIF program
// content is invalid" (EDT_DIFINVAL, from the kernel's DIF validation).
inline constexpr size_t kLargestStaticVariable = 16 * 1024;
bool has_oversized_static(const compiler::Program &program, size_t strsize);

// The most bytes one firing of `ecb` writes to a buffer (strings count at strsize).
size_t record_bound(const Ecb &ecb, size_t strsize);

// The room a fill buffer keeps for END: the records of every END clause.
size_t end_reserve(const std::vector<const Ecb *> &end_ecbs, size_t strsize);

// What the clauses enabled in `engine` need: aggregation tables, speculation
// buffers, and under bufpolicy=fill the room END's records take.
ResourceNeeds resource_needs(const Engine &engine, const Options &options);

// nullopt when tracing may start; otherwise DTrace's reason.
std::optional<std::string> check_enablings(const std::vector<const Ecb *> &ecbs,
                                           const std::vector<const Ecb *> &end_ecbs, const Options &options);

} // namespace dtrace::engine
