// provider_names.h: what to call the providers of a trace.
//
// An ETL record names its provider by GUID only. Names matter twice: the
// <provider-name>:::events probes, and diag:::events' arg0. They come from,
// in order of preference:
//   - the trace itself: TraceLogging events carry their provider's name in
//     a PROV_TRAITS extended item;
//   - the NT kernel event classes (Process, Thread, DiskIo ...), whose GUIDs
//     the reader maps from hook ids;
//   - a short table of providers that are common in traces but do not name
//     themselves (the .NET runtime's, the classic events PerfView and xperf
//     inject into merged files).
// A provider none of these name is known by its GUID only.
#pragma once

#include <string>
#include <string_view>

#include "reader/event.h"
#include "reader/guid.h"

namespace dtrace::etw::plugin {

// The name from the kernel classes or the table; empty if neither knows it.
std::string_view known_provider_name(const Guid &provider);

// The name an event carries for its provider (TraceLogging traits); empty if
// it carries none.
std::string_view name_carried_by(const Event &event);

} // namespace dtrace::etw::plugin
