// probe_args.h: argument types of probes registered without them.
//
// A plugin may register probes untyped (cheap for 100,000 probes) and type
// them on demand through arg_info. Listing with -v and typing args[] in the
// compiler both need the types; this asks once and remembers.
#pragma once

#include "engine/probe_table.h"
#include "host/plugin_host.h"

namespace dtrace::cli {

// Fills probe.args from the plugin if not known yet. False if the plugin
// could not say (the probe then keeps no argument types).
bool ensure_arg_types(engine::Probe &probe, host::PluginHost &host);

} // namespace dtrace::cli
