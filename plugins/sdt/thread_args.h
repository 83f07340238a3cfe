// thread_args.h: the (lwpsinfo_t *, psinfo_t *) pair that proc's and
// sched's probes pass, for the firing's own thread or for another one (the
// thread coming on at off-cpu, the woken one, a signal's target, a new
// process or thread). Shared by the proc and sched families.
#pragma once

#include <cstdint>

#include "probe_family.h"

namespace dtrace::sdt {

// args[first], args[first + 1]: lwpsinfo_t * and psinfo_t * of thread tid
// of process pid.
void thread_args(const ArgContext &c, uint32_t pid, uint32_t tid, ProbeArgs &args, size_t first);

// The same for a thread the firing's thread has just created (pid == tid:
// a new process), described as fork copied it from its creator.
void child_args(const ArgContext &c, uint32_t pid, uint32_t tid, ProbeArgs &args, size_t first);

// The argument descriptions of that pair at args[0], args[1].
extern const dtrace_arg_desc kThreadArgs[2];

} // namespace dtrace::sdt
