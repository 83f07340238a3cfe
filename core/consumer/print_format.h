// print_format.h: print() of a typed value, as DTrace prints it.
//
// DTrace's print() shows a value the way mdb's "::print -tn" does: the type,
// then the value; integers in hex, characters quoted, pointers in hex,
// floats with %+.7e, enums by name, character arrays holding a string as
// "text", other arrays as [ a, b ], and structs and unions member by member,
// each member as "type name = value" indented four spaces per level:
//
//   struct point {
//       int x = 0x1
//       char [4] tag = [ "ab" ]
//   }
//
// A struct's closing brace ends the text without a line break (trace()'s
// end of record supplies it, or nothing with -q). The type is the compiler's
// own (compiler/types.h); `bytes` are the recorded value, laid out as the
// type says.
#pragma once

#include "compiler/types.h"

#include <string>
#include <string_view>

namespace dtrace::consumer {

std::string format_print(const compiler::Type &type, std::string_view bytes);

} // namespace dtrace::consumer
