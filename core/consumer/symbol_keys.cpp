// symbol_keys.cpp: folding aggregation entries whose keys name the same symbols.
#include "consumer/symbol_keys.h"

#include "aggdata/agg_data.h"
#include "consumer/symbol_format.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

namespace dtrace::consumer {

namespace {

bool names_a_symbol(const Value &v) {
    return v.symbolic != Value::Symbolic::None && v.symbolic != Value::Symbolic::UAddr;
}

bool is_user(const Value &v) {
    return v.symbolic == Value::Symbolic::USym || v.symbolic == Value::Symbolic::UMod;
}

// Moves the address of a symbolic key part to the start of what it names,
// where the lookup says: a function's start (sym, usym), a module's base
// when the lookup gives the offset in the module (mod, umod). As DTrace
// does, so that %A of the key prints the symbol itself.
void move_to_start(Value &v, const Resolvers &resolvers) {
    const bool user = is_user(v);
    uint64_t pid = 0;
    uint64_t address = v.bits;
    if (user) {
        if (v.bytes.size() < 2 * sizeof(uint64_t))
            return;
        std::memcpy(&pid, v.bytes.data(), sizeof pid);
        std::memcpy(&address, v.bytes.data() + sizeof pid, sizeof address);
    }
    const std::optional<Symbol> symbol =
        user ? user_lookup(resolvers, pid, address) : kernel_lookup(resolvers, address);
    if (!symbol)
        return;
    const bool by_module = v.symbolic == Value::Symbolic::Mod || v.symbolic == Value::Symbolic::UMod;
    const bool offset_from_start =
        by_module ? symbol->function.empty() && symbol->module_offset : !symbol->function.empty();
    if (!offset_from_start)
        return;
    address -= symbol->offset;
    if (user)
        std::memcpy(v.bytes.data() + sizeof pid, &address, sizeof address);
    else
        v.bits = address;
}

// What a key is when symbols are compared by name: each part's bytes, a
// symbolic part's text (after its process id for the user forms, which
// DTrace's key keeps too), each part prefixed by its length so that no two
// keys run together.
std::string identity(const std::vector<Value> &key, const Resolvers &resolvers) {
    std::string out;
    for (const Value &v : key) {
        std::string part = v.record();
        if (names_a_symbol(v))
            part = (is_user(v) ? v.bytes.substr(0, sizeof(uint64_t)) : std::string()) + symbolic_text(v, resolvers);
        out += std::to_string(part.size()) + ':' + part;
    }
    return out;
}

} // namespace

void merge_symbol_keys(AggregationSnapshot &agg, const Resolvers &resolvers,
                       std::vector<std::vector<size_t>> *sources) {
    if (sources) {
        sources->assign(agg.entries.size(), {});
        for (size_t i = 0; i < agg.entries.size(); i++)
            (*sources)[i] = {i};
    }
    if (agg.entries.empty() || std::none_of(agg.entries.front().key.begin(), agg.entries.front().key.end(),
                                            [](const Value &v) { return names_a_symbol(v); })) {
        return;
    }
    std::vector<AggEntry> merged;
    std::vector<std::vector<size_t>> merged_sources;
    std::unordered_map<std::string, size_t> index_of;
    for (size_t i = 0; i < agg.entries.size(); i++) {
        AggEntry &entry = agg.entries[i];
        for (Value &v : entry.key) {
            if (names_a_symbol(v))
                move_to_start(v, resolvers);
        }
        auto [it, inserted] = index_of.try_emplace(identity(entry.key, resolvers), merged.size());
        if (inserted) {
            merged.push_back(std::move(entry));
            merged_sources.push_back({i});
        } else {
            aggdata::aggregate_merge(agg.decl.func, merged[it->second].data, entry.data);
            merged_sources[it->second].push_back(i);
        }
    }
    agg.entries = std::move(merged);
    if (sources)
        *sources = std::move(merged_sources);
}

} // namespace dtrace::consumer
