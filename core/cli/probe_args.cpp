// probe_args.cpp: lazy argument typing through the owning plugin.
#include "cli/probe_args.h"

namespace dtrace::cli {

bool ensure_arg_types(engine::Probe &probe, host::PluginHost &host) {
    if (probe.args_known)
        return true;
    std::vector<host::ArgType> args;
    for (uint32_t i = 0; i < probe.nargs; i++) {
        auto arg = host.arg_info(probe.provider->id, probe.id, probe.cookie, i);
        if (!arg.ok())
            return false;
        args.push_back(arg.value());
    }
    probe.args = std::move(args);
    probe.args_known = true;
    return true;
}

} // namespace dtrace::cli
