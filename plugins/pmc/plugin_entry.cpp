// plugin_entry.cpp: the pmc plugin's SDK entry point and ops table.
#include <dtrace/provider.h>

#include "plugin_entry.h"
#include "pmc_plugin.h"

namespace {

dtrace_plugin_ops make_ops() {
    dtrace_plugin_ops ops = dtrace::plugin_common::entry_ops<dtrace::pmc::PmcPlugin>();
    ops.name = "pmc";
    ops.counter_array = "pmc";
    ops.description =
        "perf event sampling: pmc:::<counter>-<interval>, and profile-N/tick-N in the sampled thread's context";
    return ops;
}

const dtrace_plugin_ops kOps = make_ops();

} // namespace

DTRACE_PLUGIN_ENTRY(kOps)
