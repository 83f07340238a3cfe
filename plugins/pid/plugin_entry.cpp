// plugin_entry.cpp: the SDK entry point of the pid plugin (pid.so).
#include <dtrace/provider.h>

#include "pid_plugin.h"
#include "plugin_entry.h"

namespace {

const dtrace_option_desc kOptions[] = {
    {sizeof(dtrace_option_desc), "pidbackend", DTRACE_OPTION_STRING, "auto",
     "how pid probes are placed: auto (uprobes, else ptrace breakpoints where the kernel has no uprobes or refuses "
     "BPF), uprobe, ptrace (int3 breakpoints under ptrace: microseconds per hit)"},
};

dtrace_plugin_ops make_ops() {
    dtrace_plugin_ops ops = dtrace::plugin_common::entry_ops<dtrace::pid::PidPlugin>();
    ops.name = "pid";
    ops.description = "user function entry, return and instruction probes of a process, live (uprobes)";
    ops.providers = "pid*";
    ops.noptions = 1;
    ops.options = kOptions;
    return ops;
}

const dtrace_plugin_ops kOps = make_ops();

} // namespace

DTRACE_PLUGIN_ENTRY(kOps)
