// plugin_entry.cpp: the SDK entry points of the fbt plugin (fbt.so).
//
// Each entry point catches what the C++ below it may throw (memory
// exhaustion), reports it and fails the call: no exception crosses into
// the host.
#include <exception>
#include <memory>

#include <dtrace/provider.h>

#include "fbt_plugin.h"

namespace dtrace::fbt {

namespace {

template <typename Body> int guarded(void *state, Body body) {
    FbtPlugin &p = *static_cast<FbtPlugin *>(state);
    try {
        return body(p);
    } catch (const std::exception &e) {
        p.ops()->report_error(p.host(), e.what());
        return -1;
    }
}

int fbt_init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    try {
        auto plugin = std::make_unique<FbtPlugin>(host, ops);
        if (plugin->init() != 0)
            return -1;
        *state = plugin.release();
        return 0;
    } catch (const std::exception &e) {
        ops->report_error(host, e.what());
        return -1;
    }
}

const dtrace_plugin_ops kOps = {
    .struct_size = sizeof(dtrace_plugin_ops),
    .abi_version = DTRACE_SDK_ABI_VERSION,
    .name = "fbt",
    .description = "kernel function entry and return, live (BPF kprobes), typed from BTF",
    .capabilities = 0,
    .init = fbt_init,
    .provide = [](void *s,
                  const dtrace_probe_spec *spec) { return guarded(s, [&](FbtPlugin &p) { return p.provide(spec); }); },
    .arg_info =
        [](void *s, dtrace_probe_id probe, uint64_t cookie, uint32_t index, dtrace_arg_desc *out) {
            return guarded(s, [&](FbtPlugin &p) { return p.arg_info(probe, cookie, index, out); });
        },
    .enable = [](void *s, dtrace_probe_id probe,
                 uint64_t cookie) { return guarded(s, [&](FbtPlugin &p) { return p.enable(probe, cookie); }); },
    .disable =
        [](void *s, dtrace_probe_id probe, uint64_t cookie) {
            guarded(s, [&](FbtPlugin &p) {
                p.disable(probe, cookie);
                return 0;
            });
        },
    .start = [](void *s) { return guarded(s, [](FbtPlugin &p) { return p.start(); }); },
    .stop = [](void *s) { static_cast<FbtPlugin *>(s)->stop(); },
    .destroy = [](void *s) { delete static_cast<FbtPlugin *>(s); },
    .lookup_symbol =
        [](void *s, uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out) {
            return guarded(s, [&](FbtPlugin &p) { return p.lookup_symbol(space, pid, address, out); });
        },
    .consume_action = nullptr,
    .add_live_timer = nullptr,
    .remove_live_timer = nullptr,
    .version = nullptr,
    .noptions = 0,
    .options = nullptr,
    .providers = "fbt",
    .target_changed = nullptr,
    .set_filters =
        [](void *s, dtrace_probe_id probe, uint64_t cookie, uint32_t n, const dtrace_filter *filters) {
            return guarded(s, [&](FbtPlugin &p) { return p.set_filters(probe, cookie, n, filters); });
        },
    .lookup_type =
        [](void *s, const char *name, const dtrace_type_graph **out) {
            return guarded(s, [&](FbtPlugin &p) { return p.lookup_type(name, out); });
        },
    .lookup_kernel_symbol =
        [](void *s, const char *module, const char *name, dtrace_kernel_symbol *out) {
            return guarded(s, [&](FbtPlugin &p) { return p.lookup_kernel_symbol(module, name, out); });
        },
};

} // namespace

} // namespace dtrace::fbt

extern "C" DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version) {
    return host_abi_version >= DTRACE_SDK_ABI_VERSION ? &dtrace::fbt::kOps : nullptr;
}
