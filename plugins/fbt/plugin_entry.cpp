// plugin_entry.cpp: the SDK entry point of the fbt plugin (fbt.so).
#include <dtrace/provider.h>

#include "fbt_plugin.h"
#include "plugin_entry.h"

namespace {

dtrace_plugin_ops make_ops() {
    dtrace_plugin_ops ops = dtrace::plugin_common::entry_ops<dtrace::fbt::FbtPlugin>();
    ops.name = "fbt";
    ops.description = "kernel function entry and return, live (BPF kprobes), typed from BTF";
    ops.providers = "fbt";
    return ops;
}

const dtrace_plugin_ops kOps = make_ops();

} // namespace

DTRACE_PLUGIN_ENTRY(kOps)
