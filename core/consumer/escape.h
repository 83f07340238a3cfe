// escape.h: C escapes for %S and %C.
//
// DTrace prints a string with %S by converting unprintable characters to the
// escape sequences a C programmer would type ("\n", "\033"). It walks the
// whole record, so the NUL that ends a string is shown as "\0" and ends the
// output.
#pragma once

#include <string>
#include <string_view>

namespace dtrace::consumer {

// `record` with \a \b \f \n \r \t \v \" \\ and \0 spelled out, any other byte
// outside '!'..'~' (space excepted) as a three-digit octal escape; stops after
// the first NUL.
std::string escape_chars(std::string_view record);

} // namespace dtrace::consumer
