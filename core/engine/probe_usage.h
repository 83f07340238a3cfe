// probe_usage.h: what the clauses enabled on a probe read that a live
// plugin must capture when the event happens (dtrace_host_ops.probe_usage):
// stacks, user registers, and strings copied in from argument pointers.
//
// It reads the clauses' DIF: a call of ustack() or a read of ustackdepth or
// ucaller wants the user stack (stack(), stackdepth and caller the
// kernel's), a read of uregs[] the registers, and copyinstr() of a value
// loaded from argN (or args[i], translated from argN) that string. What
// the scan cannot follow (an argument through a variable) is not
// reported: the plugin then reads the memory after the event, as before.
// The kernel memory the clauses load from the event's values is planned
// by memory_fetch_plan.h.
#pragma once

#include <dtrace/provider.h>

#include "engine/probe_table.h"

namespace dtrace::engine {

// The usage of every clause enabled on `probe` (call under the enabling
// lock); strings fetched from kernel memory up to string_limit (strsize).
dtrace_probe_usage usage_of(const Probe &probe, uint32_t string_limit);

} // namespace dtrace::engine
