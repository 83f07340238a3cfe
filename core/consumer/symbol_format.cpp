// symbol_format.cpp: addresses as DTrace names them (see symbol_format.h).
#include "consumer/symbol_format.h"

#include <cstring>

namespace dtrace::consumer {

std::string address_text(const std::optional<Symbol> &symbol, uint64_t address) {
    if (!symbol)
        return unresolved_address(address);
    if (symbol->function.empty() && symbol->module_offset)
        return symbol->module + "+" + unresolved_address(symbol->offset);
    if (symbol->function.empty())
        return symbol->module + "`" + unresolved_address(address);
    std::string text = symbol->module + "`" + symbol->function;
    if (symbol->offset != 0)
        text += "+" + unresolved_address(symbol->offset);
    return text;
}

std::string symbol_text(const std::optional<Symbol> &symbol, uint64_t address) {
    if (symbol && !symbol->function.empty())
        return symbol->module + "`" + symbol->function;
    return address_text(symbol, address);
}

std::string module_text(const std::optional<Symbol> &symbol, uint64_t address) {
    return symbol ? symbol->module : unresolved_address(address);
}

std::optional<Symbol> kernel_lookup(const Resolvers &resolvers, uint64_t address) {
    return resolvers.kernel_symbol ? resolvers.kernel_symbol(address) : std::nullopt;
}

std::optional<Symbol> user_lookup(const Resolvers &resolvers, uint64_t pid, uint64_t address) {
    return resolvers.user_symbol ? resolvers.user_symbol(pid, address) : std::nullopt;
}

std::string symbolic_text(const Value &value, const Resolvers &resolvers) {
    uint64_t pid = 0;
    uint64_t address = value.bits;
    if (value.kind == Value::Kind::Bytes && value.bytes.size() >= 2 * sizeof(uint64_t)) {
        std::memcpy(&pid, value.bytes.data(), sizeof pid);
        std::memcpy(&address, value.bytes.data() + sizeof pid, sizeof address);
    }
    switch (value.symbolic) {
    case Value::Symbolic::Sym:
        return symbol_text(kernel_lookup(resolvers, address), address);
    case Value::Symbolic::Mod:
        return module_text(kernel_lookup(resolvers, address), address);
    case Value::Symbolic::USym:
        return symbol_text(user_lookup(resolvers, pid, address), address);
    case Value::Symbolic::UMod:
        return module_text(user_lookup(resolvers, pid, address), address);
    case Value::Symbolic::UAddr:
        return address_text(user_lookup(resolvers, pid, address), address);
    case Value::Symbolic::None:
        break;
    }
    return unresolved_address(address);
}

} // namespace dtrace::consumer
