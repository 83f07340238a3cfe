// plugin_types.h: the plugins' on-demand types and kernel symbols, as the
// compiler's hooks take them (CompileOptions::resolve_type, resolve_symbol).
#pragma once

#include "compiler/compile.h"
#include "host/plugin_host.h"

namespace dtrace::cli {

void install_plugin_type_hooks(compiler::CompileOptions &options, host::PluginHost &host);

} // namespace dtrace::cli
