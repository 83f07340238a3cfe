// plugin_entry.cpp: the SDK entry points of the sdt plugin (sdt.so).
#include <exception>
#include <memory>

#include <dtrace/provider.h>

#include "sdk_filter.h"
#include "sdt_plugin.h"

namespace dtrace::sdt {

namespace {

template <typename Body> int guarded(dtrace_host *host, const dtrace_host_ops *ops, Body body) {
    try {
        return body();
    } catch (const std::exception &e) {
        ops->report_error(host, e.what());
        return -1;
    }
}

SdtPlugin &plugin_of(void *state) {
    return *static_cast<SdtPlugin *>(state);
}

int sdt_init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    return guarded(host, ops, [&] {
        auto plugin = std::make_unique<SdtPlugin>(host, ops);
        if (plugin->init() != 0)
            return -1;
        *state = plugin.release();
        return 0;
    });
}

int sdt_provide(void *state, const dtrace_probe_spec *spec) {
    SdtPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.provide(spec); });
}

int sdt_enable(void *state, dtrace_probe_id, uint64_t cookie) {
    SdtPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.enable(cookie); });
}

void sdt_disable(void *state, dtrace_probe_id, uint64_t cookie) {
    SdtPlugin &p = plugin_of(state);
    guarded(p.host(), p.ops(), [&] {
        p.disable(cookie);
        return 0;
    });
}

int sdt_set_filters(void *state, dtrace_probe_id, uint64_t cookie, uint32_t nfilters, const dtrace_filter *filters) {
    SdtPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.set_filter(cookie, live::probe_filter_of(nfilters, filters)); });
}

int sdt_start(void *state) {
    SdtPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.start(); });
}

void sdt_stop(void *state) {
    plugin_of(state).stop();
}

void sdt_destroy(void *state) {
    delete &plugin_of(state);
}

const dtrace_plugin_ops kOps = {
    .struct_size = sizeof(dtrace_plugin_ops),
    .abi_version = DTRACE_SDK_ABI_VERSION,
    .name = "sdt",
    .description = "kernel tracepoints (sdt) and the proc, sched, io, ip, tcp, udp, lockstat providers, live",
    .capabilities = 0,
    .init = sdt_init,
    .provide = sdt_provide,
    .arg_info = nullptr,
    .enable = sdt_enable,
    .disable = sdt_disable,
    .start = sdt_start,
    .stop = sdt_stop,
    .destroy = sdt_destroy,
    .lookup_symbol = nullptr,
    .consume_action = nullptr,
    .set_filters = sdt_set_filters,
};

} // namespace

} // namespace dtrace::sdt

extern "C" DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version) {
    return host_abi_version >= DTRACE_SDK_ABI_VERSION ? &dtrace::sdt::kOps : nullptr;
}
