// metadata_trace.h: a trace that carries its own decoding metadata.
//
// Its events belong to providers no manifest is registered for: the trace
// describes them itself, as merged files and .NET EventSources do
// (plugins/etw/trace_metadata.h). The content is listed in
// metadata_trace.cpp.
#pragma once

#include "byte_writer.h"
#include "reader/guid.h"

namespace dtrace::etw::fixture {

// Described by TRACE_EVENT_INFO and EVENT_MAP_INFO records ("Fixture-Described").
extern const Guid kDescribedProvider;
// An EventSource that logs its manifest in two chunks ("Fixture.Source").
extern const Guid kEventSourceProvider;

Bytes metadata_trace();

} // namespace dtrace::etw::fixture
