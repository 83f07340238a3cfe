// plugin_entry.cpp: the SDK entry point of the fbt plugin (fbt.so).
#include <dtrace/provider.h>

#include "fbt_plugin.h"
#include "plugin_entry.h"

namespace {

const dtrace_option_desc kOptions[] = {
    {sizeof(dtrace_option_desc), "fbtattach", DTRACE_OPTION_STRING, "auto",
     "how fbt probes attach: auto (fentry/fexit where the kernel allows them, else kprobes), kprobe, fentry"},
};

dtrace_plugin_ops make_ops() {
    dtrace_plugin_ops ops = dtrace::plugin_common::entry_ops<dtrace::fbt::FbtPlugin>();
    ops.name = "fbt";
    ops.description = "kernel function entry and return, live (BPF kprobes), typed from BTF";
    ops.providers = "fbt";
    ops.capabilities = DTRACE_PLUGIN_KERNEL_TYPES;
    ops.noptions = 1;
    ops.options = kOptions;
    return ops;
}

const dtrace_plugin_ops kOps = make_ops();

} // namespace

DTRACE_PLUGIN_ENTRY(kOps)
