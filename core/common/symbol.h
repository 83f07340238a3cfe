// symbol.h: what a symbol lookup found at an address.
//
// Plugins answer lookups through the SDK's lookup_symbol (the host copies
// their answer into this), and the consumer formats it as DTrace does
// (consumer/symbol_format.h).
#pragma once

#include <cstdint>
#include <string>

namespace dtrace {

struct Symbol {
    std::string module;   // always set
    std::string function; // empty: only the module is known
    uint64_t offset = 0;  // address minus the function's start (with a function)
};

} // namespace dtrace
