// symbol_format.h: addresses as DTrace names them.
//
// The consumer records addresses as numbers and names them when it prints,
// through the Resolvers (which ask the plugins, see common/symbol.h). DTrace
// has three ways of writing what a lookup found:
//   an address (stack frames, %a, %A, uaddr()): "mod`func+0x1c", "mod`func"
//     at the function's start, "mod`0xaddr" in a module without a function;
//   a symbol (sym(), func(), usym(), ufunc()): "mod`func" or "mod`0xaddr";
//   a module (mod(), umod()): "mod".
// Any of them is "0xaddr" when nothing is known of the address.
#pragma once

#include "common/symbol.h"
#include "consumer/printf_format.h"
#include "consumer/value.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dtrace::consumer {

std::string address_text(const std::optional<Symbol> &symbol, uint64_t address);
std::string symbol_text(const std::optional<Symbol> &symbol, uint64_t address);
std::string module_text(const std::optional<Symbol> &symbol, uint64_t address);

// The resolvers' answers, absent resolvers meaning "unknown".
std::optional<Symbol> kernel_lookup(const Resolvers &resolvers, uint64_t address);
std::optional<Symbol> user_lookup(const Resolvers &resolvers, uint64_t pid, uint64_t address);

// The text of a sym(), mod(), usym(), umod() or uaddr() value (one whose
// `symbolic` is set), without the "  %-50s" padding of trace output.
std::string symbolic_text(const Value &value, const Resolvers &resolvers);

} // namespace dtrace::consumer
