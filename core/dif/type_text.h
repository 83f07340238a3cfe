// type_text.h: how a DIF type (TypeDesc) is written in listings, and read
// back by the assembler.
//
// Listings describe types as DTrace's -S does ("D type (integer) (size 8)",
// "string by ref (size 256)"); the assembler also takes short names for hand
// written code: int8..int64, uint8..uint64, void, string, byref:N.
#pragma once

#include "dif/difo.h"

#include <optional>
#include <string>
#include <string_view>

namespace dtrace::dif {

std::string type_text(const TypeDesc &type);
std::optional<TypeDesc> parse_type(std::string_view text);

} // namespace dtrace::dif
