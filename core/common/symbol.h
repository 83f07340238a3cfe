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
    // Address minus the function's start (with a function), or minus the
    // module's base (with module_offset).
    uint64_t offset = 0;
    // No function: printed "module+0xoffset" instead of DTrace's
    // "module`0xaddress" (DTRACE_SYMBOL_MODULE_OFFSET).
    bool module_offset = false;
};

} // namespace dtrace
