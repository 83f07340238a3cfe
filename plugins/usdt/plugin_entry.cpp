// plugin_entry.cpp: the SDK entry point of the USDT plugin (usdt.so).
#include <dtrace/provider.h>

#include "plugin_entry.h"
#include "usdt_plugin.h"

namespace {

const dtrace_option_desc kOptions[] = {
    {sizeof(dtrace_option_desc), "usdtpath", DTRACE_OPTION_LIST, nullptr,
     "directories of provider definitions (PROVIDER.d) typing static probes' arguments, searched before "
     "/usr/local/share/dtrace/providers and /usr/share/dtrace/providers"},
};

dtrace_plugin_ops make_ops() {
    dtrace_plugin_ops ops = dtrace::plugin_common::entry_ops<dtrace::usdt::UsdtPlugin>();
    ops.name = "usdt";
    ops.description = "static probes of a process's programs and libraries (.note.stapsdt), live (uprobes)";
    ops.noptions = sizeof kOptions / sizeof kOptions[0];
    ops.options = kOptions;
    return ops;
}

const dtrace_plugin_ops kOps = make_ops();

} // namespace

DTRACE_PLUGIN_ENTRY(kOps)
