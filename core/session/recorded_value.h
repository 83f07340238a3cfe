// recorded_value.h: from a recorded field to what the consumer prints, and
// the plugins' symbol lookups as the consumer's resolvers.
//
// A field is read back as an integer or raw bytes; its record type then says
// whether it stands for itself or is a stack (stack(), ustack()) or an
// address to name (sym(), usym() and their kin), which the consumer prints
// by asking the plugins what lies at each address.
#pragma once

#include "common/symbol.h"
#include "consumer/printf_format.h"
#include "consumer/value.h"
#include "dif/difo.h"

#include <cstdint>
#include <functional>
#include <optional>

namespace dtrace::host {
class LoadedPlugin;
}

namespace dtrace::session {

// `raw` (an Integer or Bytes value read from a field of type `type`) as the
// consumer prints it.
consumer::Value shown_value(const dif::TypeDesc &type, consumer::Value raw);

// Asks the plugins what contains `address` (user: of process `pid`), the
// plugin that recorded it first (null: unknown). See PluginHost::lookup_symbol.
using SymbolLookup =
    std::function<std::optional<Symbol>(host::LoadedPlugin *recorder, bool user, int64_t pid, uint64_t address)>;

// The resolvers of addresses recorded by a probe of `recorder` (null: by
// probes of any plugin, as aggregation keys are). No lookup: nothing resolves.
consumer::Resolvers plugin_resolvers(const SymbolLookup &lookup, host::LoadedPlugin *recorder);

} // namespace dtrace::session
