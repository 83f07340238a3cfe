// dtrace_provider.h: the built-in providers, written against the same SDK as
// every plugin so that listing, enabling and firing have one path.
#pragma once

#include <dtrace/provider.h>

namespace dtrace::providers {

// The dtrace provider: BEGIN, END and ERROR. The engine fires them itself
// (at go, at stop, on faults); the plugin only registers them, first, so
// their ids are 1, 2 and 3.
const dtrace_plugin_ops *dtrace_provider_ops();

// The profile provider: profile-N (every CPU) and tick-N (one CPU) timers.
const dtrace_plugin_ops *profile_provider_ops();

} // namespace dtrace::providers
