// plugin_entry.cpp: the SDK entry points of the etw plugin (etw.so).
//
// The SDK's entry points are C functions over an opaque state; each one
// catches what the C++ code below it may throw (memory exhaustion), reports
// it and fails the call, so that no exception crosses into the host.
#include <exception>
#include <memory>

#include <dtrace/provider.h>

#include "etw_plugin.h"
#include "etw_trace_action.h"
#include "manifest_set.h"
#include "plugin_entry.h"
#include "replay_family.h"

namespace dtrace::etw::plugin {

namespace {

using plugin_common::guarded;

EtwPlugin &plugin_of(void *state) {
    return *static_cast<EtwPlugin *>(state);
}

int etw_init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    return guarded(host, ops, [&] {
        auto plugin = std::make_unique<EtwPlugin>(host, ops, make_replay_families(host, ops));
        if (plugin->init() != 0) {
            return -1;
        }
        *state = plugin.release();
        return 0;
    });
}

int etw_provide(void *state, const dtrace_probe_spec *spec) {
    EtwPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.provide(spec); });
}

int etw_enable(void *state, dtrace_probe_id, uint64_t cookie) {
    EtwPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.set_enabled(cookie, true); });
}

void etw_disable(void *state, dtrace_probe_id, uint64_t cookie) {
    EtwPlugin &p = plugin_of(state);
    guarded(p.host(), p.ops(), [&] { return p.set_enabled(cookie, false); });
}

int etw_start(void *state) {
    EtwPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.start(); });
}

void etw_stop(void *state) {
    plugin_of(state).stop();
}

int etw_lookup_symbol(void *state, uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out) {
    try {
        return plugin_of(state).lookup_symbol(space, pid, address, out);
    } catch (const std::exception &) { // out of memory: the address stays unnamed
        return -1;
    }
}

int etw_consume_action(void *state, const dtrace_action_call *call) {
    EtwPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.trace_action().consume(*call); });
}

int etw_resolve_counter(void *state, const char *name, uint64_t *cookie, const char **why) {
    EtwPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.resolve_counter(name, *cookie, *why); });
}

int etw_read_counter(void *state, uint64_t cookie, const dtrace_event_ctx *ctx, uint64_t *value) {
    return plugin_of(state).read_counter(cookie, *ctx, *value);
}

void etw_destroy(void *state) {
    EtwPlugin &p = plugin_of(state);
    guarded(p.host(), p.ops(), [&] {
        p.trace_action().finish();
        return 0;
    });
    delete &p;
}

const dtrace_option_desc kEtwOptions[] = {
    {sizeof(dtrace_option_desc), kManifestOption, DTRACE_OPTION_LIST, nullptr,
     "an instrumentation manifest (.man, .xml) or a directory of them, to decode events by"},
    {sizeof(dtrace_option_desc), kEtwTraceOption, DTRACE_OPTION_STRING, nullptr, "the .etl file etw_trace() writes"},
};

// Besides these, a trace's own providers appear under their names
// (microsoft-windows-dotnetruntime...), which no pattern can foresee.
constexpr const char *kEtwProviders =
    "etw diag proc sched io fsinfo reg pf tcpip udpip dpc isr syscall sampled dnet pmc";

const dtrace_plugin_ops kEtwOps = {
    .struct_size = sizeof(dtrace_plugin_ops),
    .abi_version = DTRACE_SDK_ABI_VERSION,
    .name = "etw",
    .description = "ETW trace files (-E): etw, diag and provider-name probes; etw_trace()",
    .capabilities = DTRACE_PLUGIN_REPLAY,
    .init = etw_init,
    .provide = etw_provide,
    .arg_info = nullptr,
    .enable = etw_enable,
    .disable = etw_disable,
    .start = etw_start,
    .stop = etw_stop,
    .destroy = etw_destroy,
    .lookup_symbol = etw_lookup_symbol,
    .consume_action = etw_consume_action,
    .version = DTRACE_PROJECT_VERSION,
    .noptions = sizeof kEtwOptions / sizeof kEtwOptions[0],
    .options = kEtwOptions,
    .providers = kEtwProviders,
    .counter_array = "pmc",
    .resolve_counter = etw_resolve_counter,
    .read_counter = etw_read_counter,
};

} // namespace

} // namespace dtrace::etw::plugin

extern "C" DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t) {
    return &dtrace::etw::plugin::kEtwOps;
}
