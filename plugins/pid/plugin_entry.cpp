// plugin_entry.cpp: the SDK entry point of the pid plugin (pid.so).
#include <dtrace/provider.h>

#include "pid_plugin.h"
#include "plugin_entry.h"

namespace {

dtrace_plugin_ops make_ops() {
    dtrace_plugin_ops ops = dtrace::plugin_common::entry_ops<dtrace::pid::PidPlugin>();
    ops.name = "pid";
    ops.description = "user function entry, return and instruction probes of a process, live (uprobes)";
    ops.providers = "pid*";
    return ops;
}

const dtrace_plugin_ops kOps = make_ops();

} // namespace

DTRACE_PLUGIN_ENTRY(kOps)
