// plugin_entry.cpp: the SDK entry points of the fpid plugin (fpid.so).
//
// Each entry point catches what the C++ below it may throw (memory
// exhaustion), reports it and fails the call: no exception crosses into
// the host.
#include <exception>
#include <memory>

#include <dtrace/provider.h>

#include "fpid_plugin.h"

namespace dtrace::fpid {

namespace {

template <typename Body> int guarded(dtrace_host *host, const dtrace_host_ops *ops, Body body) {
    try {
        return body();
    } catch (const std::exception &e) {
        ops->report_error(host, e.what());
        return -1;
    }
}

FpidPlugin &plugin_of(void *state) {
    return *static_cast<FpidPlugin *>(state);
}

int fpid_init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    return guarded(host, ops, [&] {
        *state = new FpidPlugin(host, ops);
        return 0;
    });
}

int fpid_provide(void *state, const dtrace_probe_spec *spec) {
    FpidPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.provide(spec); });
}

int fpid_enable(void *state, dtrace_probe_id, uint64_t cookie) {
    FpidPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.enable(cookie); });
}

void fpid_disable(void *, dtrace_probe_id, uint64_t) {}

int fpid_start(void *state) {
    FpidPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.start(); });
}

void fpid_stop(void *state) {
    plugin_of(state).stop();
}

void fpid_destroy(void *state) {
    delete &plugin_of(state);
}

int fpid_lookup_symbol(void *state, uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out) {
    FpidPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.lookup_symbol(space, pid, address, out); });
}

void fpid_target_changed(void *state, int64_t pid, uint32_t new_state) {
    plugin_of(state).target_changed(pid, new_state);
}

const dtrace_option_desc kOptions[] = {
    {sizeof(dtrace_option_desc), "fpidbufsize", DTRACE_OPTION_SIZE, "4m",
     "bytes of each traced thread's fpid ring (64k to 1g); a full ring drops records"},
    {sizeof(dtrace_option_desc), "fpidnostack", DTRACE_OPTION_FLAG, nullptr,
     "no frame-pointer walk at fpid entry probes (cheaper hits; ustack() is then empty)"},
};

const dtrace_plugin_ops kOps = {
    .struct_size = sizeof(dtrace_plugin_ops),
    .abi_version = DTRACE_SDK_ABI_VERSION,
    .name = "fpid",
    .description = "user function entry and return through in-process inline hooks (-c, -p targets)",
    .capabilities = 0,
    .init = fpid_init,
    .provide = fpid_provide,
    .arg_info = nullptr,
    .enable = fpid_enable,
    .disable = fpid_disable,
    .start = fpid_start,
    .stop = fpid_stop,
    .destroy = fpid_destroy,
    .lookup_symbol = fpid_lookup_symbol,
    .consume_action = nullptr,
    .add_live_timer = nullptr,
    .remove_live_timer = nullptr,
    .version = DTRACE_PROJECT_VERSION,
    .noptions = sizeof kOptions / sizeof kOptions[0],
    .options = kOptions,
    .providers = "fpid*",
    .target_changed = fpid_target_changed,
};

} // namespace

} // namespace dtrace::fpid

extern "C" DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version) {
    return host_abi_version >= DTRACE_SDK_ABI_VERSION ? &dtrace::fpid::kOps : nullptr;
}
