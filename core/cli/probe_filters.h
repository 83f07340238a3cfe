// probe_filters.h: handing each enabled probe's predicate filters to its plugin.
//
// Once every program is enabled and before tracing starts, each probe's
// plugin hears which events can pass any of the probe's clauses: the
// disjunction of the clauses' hoisted filters (compiler/predicate_filter.h),
// or nothing when one clause could hoist no conjunct (every event may pass).
// A probe registered later hears its own once its clauses are enabled on it
// (the session's late-probe hook, engine.h).
#pragma once

#include "engine/engine.h"
#include "host/plugin_host.h"

namespace dtrace::cli {

// Every enabled probe's filters; fails when a plugin refused a probe's.
Status send_probe_filters(engine::Engine &engine, host::PluginHost &host);
// One enabled probe's filters.
Status send_probe_filters(const engine::Probe &probe, host::PluginHost &host);

} // namespace dtrace::cli
