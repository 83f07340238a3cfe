// recorded_value.cpp: see recorded_value.h.
#include "session/recorded_value.h"

namespace dtrace::session {

consumer::Value shown_value(const dif::TypeDesc &type, consumer::Value raw) {
    using Shown = dif::TypeDesc::Shown;
    using Symbolic = consumer::Value::Symbolic;
    switch (type.shown) {
    case Shown::Value:
        break;
    case Shown::Stack:
    case Shown::UserStack:
        raw.kind = type.shown == Shown::Stack ? consumer::Value::Kind::Stack : consumer::Value::Kind::UserStack;
        break;
    case Shown::Sym:
        raw.symbolic = Symbolic::Sym;
        break;
    case Shown::Mod:
        raw.symbolic = Symbolic::Mod;
        break;
    case Shown::USym:
        raw.symbolic = Symbolic::USym;
        break;
    case Shown::UMod:
        raw.symbolic = Symbolic::UMod;
        break;
    case Shown::UAddr:
        raw.symbolic = Symbolic::UAddr;
        break;
    }
    return raw;
}

consumer::Resolvers plugin_resolvers(const SymbolLookup &lookup, host::LoadedPlugin *recorder) {
    consumer::Resolvers resolvers;
    if (!lookup)
        return resolvers;
    resolvers.kernel_symbol = [lookup, recorder](uint64_t address) { return lookup(recorder, false, -1, address); };
    resolvers.user_symbol = [lookup, recorder](uint64_t pid, uint64_t address) {
        return lookup(recorder, true, static_cast<int64_t>(pid), address);
    };
    return resolvers;
}

} // namespace dtrace::session
