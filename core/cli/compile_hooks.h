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

void install_compile_hooks(compiler::CompileOptions &options, engine::Engine &engine, host::PluginHost &host);

} // namespace dtrace::cli
