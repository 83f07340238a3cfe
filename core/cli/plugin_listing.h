// plugin_listing.h: `dtrace -x plugins=help`, the plugins found and their state.
#pragma once

#include "host/plugin_catalog.h"

#include <cstdio>
#include <vector>

namespace dtrace::cli {

// One block per plugin, in precedence order:
//
//   NAME [VERSION] (FILE or built-in): loaded | not loaded: WHY
//       DESCRIPTION
//       -x OPTION[=VALUE]    OPTION'S DESCRIPTION      (one line per option)
void print_plugin_catalogue(const std::vector<host::PluginEntry> &catalogue, FILE *out);

} // namespace dtrace::cli
