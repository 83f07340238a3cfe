// own_process.h: an event context that describes dtrace itself.
//
// Probes the core fires on its own threads (BEGIN, END, ERROR, the portable
// profile timers) have no traced thread behind them: their pid, tid,
// execname and CPU are dtrace's own, as in DTrace, where BEGIN and END run
// in the dtrace process.
#pragma once

#include <dtrace/provider.h>

#include <sched.h>
#include <unistd.h>

namespace dtrace::common {

inline dtrace_event_ctx own_process_context() {
    dtrace_event_ctx ctx{};
    ctx.struct_size = sizeof ctx;
    int cpu = sched_getcpu();
    ctx.cpu = cpu < 0 ? 0 : static_cast<uint32_t>(cpu);
    ctx.pid = getpid();
    ctx.ppid = getppid();
    ctx.tid = gettid();
    ctx.uid = getuid();
    ctx.gid = getgid();
    ctx.execname = "dtrace";
    return ctx;
}

} // namespace dtrace::common
