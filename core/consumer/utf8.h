// utf8.h: encoding one code point as UTF-8.
//
// Wide characters (%lc, %ls) and aggpack's block-element cells are the only
// non-ASCII text the consumer produces; both need this one encoder.
#pragma once

#include <cstdint>
#include <string>

namespace dtrace::consumer {

void append_utf8(std::string &out, uint32_t code_point);

} // namespace dtrace::consumer
