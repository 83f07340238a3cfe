// compile_hooks.h: what the compiler asks of the rest of dtrace.
//
// The compiler is independent of the engine and the consumer; it takes
// hooks instead: the types of args[] for the probes a clause names (from
// the probe table, asking plugins to provide on-demand probes first) and
// the printf()/printa() format checks (the consumer's conversion table), and
// the functions plugins added to D (plugin actions).
#pragma once

#include "compiler/compile.h"
#include "engine/engine.h"
#include "host/plugin_host.h"

namespace dtrace::cli {

// `has_target`: a -c or -p process exists ($target), so that printf's %A
// takes any pointer or integer, as DTrace's does. `zero_matches_ok` (-Z):
// args[] of a description that matches nothing is not refused as unmatched.
void install_compile_hooks(compiler::CompileOptions &options, engine::Engine &engine, host::PluginHost &host,
                           bool has_target, bool zero_matches_ok);

} // namespace dtrace::cli
