// plugin_entry.cpp: the SDK entry point of the fpid plugin (fpid.so).
#include <dtrace/provider.h>

#include "fpid_plugin.h"
#include "plugin_entry.h"

namespace {

const dtrace_option_desc kOptions[] = {
    {sizeof(dtrace_option_desc), "fpidbufsize", DTRACE_OPTION_SIZE, "4m",
     "bytes of each traced thread's fpid ring (64k to 1g); a full ring drops records"},
};

dtrace_plugin_ops make_ops() {
    dtrace_plugin_ops ops = dtrace::plugin_common::entry_ops<dtrace::fpid::FpidPlugin>();
    ops.name = "fpid";
    ops.description = "user function entry and return through in-process inline hooks (-c and -p targets)";
    ops.noptions = sizeof kOptions / sizeof kOptions[0];
    ops.options = kOptions;
    ops.providers = "fpid*";
    return ops;
}

const dtrace_plugin_ops kOps = make_ops();

} // namespace

DTRACE_PLUGIN_ENTRY(kOps)
