// thread_counters.h: the counters D reads in any live clause, pmc["name"].
//
// pmc["page-faults"] is the firing thread's count when the event happened.
// The live plugins' BPF programs copy the counts the kernel keeps per
// thread (dtrace_thread_counts: the task's fault, context switch and
// migration counts; its on-CPU time is the event's vtimestamp) into every
// record, so a value is exact at the event and costs no perf event. Other
// counters (the hardware ones) cannot be read at other probes yet: they
// are refused when the program compiles, saying why.
#pragma once

#include <dtrace/provider.h>

#include <cstdint>
#include <optional>
#include <string>

namespace dtrace::pmc {

// The readable counter named `name` (its cookie), or nullopt with `why`.
std::optional<uint64_t> resolve_thread_counter(const std::string &name, std::string &why);

// The count of counter `cookie` at the event `ctx`; nullopt when the event
// carries no per-thread counts (a replayed event, a pmc or profile sample).
std::optional<uint64_t> read_thread_counter(uint64_t cookie, const dtrace_event_ctx &ctx);

} // namespace dtrace::pmc
