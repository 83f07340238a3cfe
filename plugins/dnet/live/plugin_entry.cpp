// plugin_entry.cpp: the SDK entry point of the live dnet plugin (dnet.so).
#include <dtrace/provider.h>

#include "dnet_live_plugin.h"
#include "plugin_entry.h"

namespace {

dtrace_plugin_ops make_ops() {
    dtrace_plugin_ops ops = dtrace::plugin_common::entry_ops<dtrace::dnet::live::DnetLivePlugin>();
    ops.name = "dnet";
    ops.description = ".NET runtime events of a live process (-p, -c) through EventPipe";
    ops.providers = "dnet";
    return ops;
}

const dtrace_plugin_ops kOps = make_ops();

} // namespace

DTRACE_PLUGIN_ENTRY(kOps)
