// plugin_entry.cpp: the SDK entry point of the sdt plugin (sdt.so).
#include <dtrace/provider.h>

#include "plugin_entry.h"
#include "sdt_plugin.h"

namespace {

dtrace_plugin_ops make_ops() {
    dtrace_plugin_ops ops = dtrace::plugin_common::entry_ops<dtrace::sdt::SdtPlugin>();
    ops.name = "sdt";
    ops.description = "kernel tracepoints (sdt) and the proc, sched, io, ip, tcp, udp, lockstat providers, live";
    return ops;
}

const dtrace_plugin_ops kOps = make_ops();

} // namespace

DTRACE_PLUGIN_ENTRY(kOps)
