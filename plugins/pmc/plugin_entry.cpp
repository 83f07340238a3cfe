// plugin_entry.cpp: the pmc plugin's SDK entry point and ops table.
#include "pmc_plugin.h"

#include <dtrace/provider.h>

namespace {

using dtrace::pmc::PmcPlugin;

PmcPlugin &self(void *state) {
    return *static_cast<PmcPlugin *>(state);
}

int init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    auto *plugin = new PmcPlugin(host, ops);
    if (plugin->register_provider() != 0) {
        delete plugin;
        return -1;
    }
    *state = plugin;
    return 0;
}

dtrace_plugin_ops make_ops() {
    dtrace_plugin_ops ops{};
    ops.struct_size = sizeof ops;
    ops.abi_version = DTRACE_SDK_ABI_VERSION;
    ops.name = "pmc";
    ops.description =
        "perf event sampling: pmc:::<counter>-<interval>, and profile-N/tick-N in the sampled thread's context";
    ops.init = init;
    ops.provide = [](void *state, const dtrace_probe_spec *spec) { return self(state).provide(spec); };
    ops.enable = [](void *state, dtrace_probe_id probe, uint64_t cookie) { return self(state).enable(probe, cookie); };
    ops.disable = [](void *state, dtrace_probe_id probe, uint64_t) { self(state).disable(probe); };
    ops.start = [](void *state) { return self(state).start(); };
    ops.stop = [](void *state) { self(state).stop(); };
    ops.destroy = [](void *state) { delete static_cast<PmcPlugin *>(state); };
    ops.lookup_symbol = [](void *state, uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out) {
        return self(state).lookup_symbol(space, pid, address, out);
    };
    ops.add_live_timer = [](void *state, dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags) {
        return self(state).add_live_timer(probe, interval_ns, flags);
    };
    ops.remove_live_timer = [](void *state, dtrace_probe_id probe) { self(state).remove_live_timer(probe); };
    ops.target_changed = [](void *state, int64_t pid, uint32_t state_now) {
        self(state).target_changed(pid, state_now);
    };
    return ops;
}

const dtrace_plugin_ops kOps = make_ops();

} // namespace

extern "C" DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version) {
    return host_abi_version >= DTRACE_SDK_ABI_VERSION ? &kOps : nullptr;
}
