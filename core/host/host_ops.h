// host_ops.h: the dtrace_host_ops table every plugin receives at init.
//
// The functions are plain C entry points that recover the plugin instance
// from the dtrace_host handle and forward to it, so that no plugin ever links
// against a core symbol (design brief, Principle 1).
#pragma once

#include <dtrace/provider.h>

namespace dtrace::host {

extern const dtrace_host_ops host_ops_table;

} // namespace dtrace::host
