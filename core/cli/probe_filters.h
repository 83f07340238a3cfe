// probe_filters.h: handing each enabled probe's predicate filters to its plugin.
//
// Once every program is enabled and before tracing starts, each probe's
// plugin hears which events can pass any of the probe's clauses: the
// disjunction of the clauses' hoisted filters (compiler/predicate_filter.h),
// or nothing when one clause could hoist no conjunct (every event may pass).
#pragma once

#include "engine/engine.h"
#include "host/plugin_host.h"

#include <optional>
#include <string>

namespace dtrace::cli {

// Returns what went wrong (the plugin refused a probe's filters), if anything.
std::optional<std::string> send_probe_filters(engine::Engine &engine, host::PluginHost &host);

} // namespace dtrace::cli
