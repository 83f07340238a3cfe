// plugin_entry.cpp: the SDK entry points of the syscall plugin (syscall.so).
//
// Each entry point catches what the C++ below it may throw (memory
// exhaustion), reports it and fails the call: no exception crosses into
// the host.
#include <exception>
#include <memory>

#include <dtrace/provider.h>

#include "sdk_filter.h"
#include "syscall_plugin.h"

namespace dtrace::syscall {

namespace {

template <typename Body> int guarded(dtrace_host *host, const dtrace_host_ops *ops, Body body) {
    try {
        return body();
    } catch (const std::exception &e) {
        ops->report_error(host, e.what());
        return -1;
    }
}

SyscallPlugin &plugin_of(void *state) {
    return *static_cast<SyscallPlugin *>(state);
}

int syscall_init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    return guarded(host, ops, [&] {
        auto plugin = std::make_unique<SyscallPlugin>(host, ops);
        if (plugin->init() != 0)
            return -1;
        *state = plugin.release();
        return 0;
    });
}

int syscall_provide(void *state, const dtrace_probe_spec *spec) {
    SyscallPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.provide(spec); });
}

int syscall_enable(void *state, dtrace_probe_id, uint64_t cookie) {
    SyscallPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.enable(cookie); });
}

void syscall_disable(void *state, dtrace_probe_id, uint64_t cookie) {
    SyscallPlugin &p = plugin_of(state);
    guarded(p.host(), p.ops(), [&] {
        p.disable(cookie);
        return 0;
    });
}

// The clauses' hoisted predicates, checked in the BPF program from then on.
int syscall_set_filters(void *state, dtrace_probe_id, uint64_t cookie, uint32_t nfilters, const dtrace_filter *filters) {
    SyscallPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.set_filter(cookie, live::probe_filter_of(nfilters, filters)); });
}

int syscall_start(void *state) {
    SyscallPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.start(); });
}

void syscall_stop(void *state) {
    plugin_of(state).stop();
}

void syscall_destroy(void *state) {
    delete &plugin_of(state);
}

const dtrace_plugin_ops kOps = {
    .struct_size = sizeof(dtrace_plugin_ops),
    .abi_version = DTRACE_SDK_ABI_VERSION,
    .name = "syscall",
    .description = "system call entry and return, live (BPF programs on the syscalls tracepoints)",
    .capabilities = 0,
    .init = syscall_init,
    .provide = syscall_provide,
    .arg_info = nullptr,
    .enable = syscall_enable,
    .disable = syscall_disable,
    .start = syscall_start,
    .stop = syscall_stop,
    .destroy = syscall_destroy,
    .lookup_symbol = nullptr,
    .consume_action = nullptr,
    .set_filters = syscall_set_filters,
};

} // namespace

} // namespace dtrace::syscall

extern "C" DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version) {
    return host_abi_version >= DTRACE_SDK_ABI_VERSION ? &dtrace::syscall::kOps : nullptr;
}
