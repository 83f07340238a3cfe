// unmatched_hint.h: a hint for a probe description that matches nothing.
//
// Provider names are case-sensitive, as in DTrace, but Windows' are not (a
// user types microsoft-windows-dotnetruntime for
// Microsoft-Windows-DotNETRuntime): when no provider has the description's
// provider name but one has it in another case, the error says which.
#pragma once

#include "engine/probe_match.h"
#include "engine/probe_table.h"

#include <string>

namespace dtrace::engine {

// " (provider names are case-sensitive: did you mean NAME?)", or "" when the
// description's provider is a pattern, matches a provider, or differs from
// every one by more than case.
std::string unmatched_hint(const ProbeTable &probes, const ProbeDescription &desc);

} // namespace dtrace::engine
