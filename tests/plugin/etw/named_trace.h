// named_trace.h: a provider whose manifest names its events and keywords.
//
// For the names users type (issue 16, point 5): events as probes by the
// manifest's names, keyword probes by its keyword names, the provider's
// name in any case, field names in `dtrace -lv`, and an event of more
// fields than the host's arg0..arg9 (args[] reaches them all). The manifest
// is written next to the trace and registered with -x etwmanifest; the
// content is listed in named_trace.cpp.
#pragma once

#include <string_view>

#include "byte_writer.h"
#include "reader/guid.h"

namespace dtrace::etw::fixture {

// "Fixture-Named"
extern const Guid kNamedProvider;

// The instrumentation manifest (named.man) and the trace (named.etl).
std::string_view named_manifest();
Bytes named_trace();

} // namespace dtrace::etw::fixture
