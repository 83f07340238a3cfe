// plugin_entry.cpp: the SDK entry point of the syscall plugin (syscall.so).
#include <dtrace/provider.h>

#include "plugin_entry.h"
#include "syscall_plugin.h"

namespace {

dtrace_plugin_ops make_ops() {
    dtrace_plugin_ops ops = dtrace::plugin_common::entry_ops<dtrace::syscall::SyscallPlugin>();
    ops.name = "syscall";
    ops.description = "system call entry and return, live (BPF programs on the syscalls tracepoints)";
    return ops;
}

const dtrace_plugin_ops kOps = make_ops();

} // namespace

DTRACE_PLUGIN_ENTRY(kOps)
