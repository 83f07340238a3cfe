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

// The in-kernel fast path (core/fastpath): dtrace's programs in place of the ring.
int syscall_fastpath_layout(void *state, dtrace_probe_id, uint64_t cookie, dtrace_fastpath_probe *out) {
    return plugin_of(state).fastpath_layout(cookie, *out);
}

int32_t syscall_create_map(void *state, const dtrace_bpf_map_spec *spec) {
    SyscallPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.create_fastpath_map(*spec); });
}

int32_t syscall_load_program(void *state, const dtrace_bpf_program *program) {
    SyscallPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.load_fastpath_program(*program); });
}

int syscall_attach_program(void *state, int32_t program, dtrace_probe_id, uint64_t cookie) {
    SyscallPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.attach_fastpath_program(program, cookie); });
}

int syscall_read_map(void *state, int32_t map, dtrace_bpf_map_entry_fn fn, void *arg) {
    SyscallPlugin &p = plugin_of(state);
    return guarded(p.host(), p.ops(), [&] { return p.read_fastpath_map(map, fn, arg); });
}

const dtrace_fastpath_ops kFastpathOps = {
    .struct_size = sizeof(dtrace_fastpath_ops),
    .probe_layout = syscall_fastpath_layout,
    .create_map = syscall_create_map,
    .load_program = syscall_load_program,
    .attach_program = syscall_attach_program,
    .read_map = syscall_read_map,
};

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
    .lookup_type = nullptr,
    .lookup_kernel_symbol = nullptr,
    .fastpath = &kFastpathOps,
};

} // namespace

} // namespace dtrace::syscall

extern "C" DTRACE_PLUGIN_EXPORT const dtrace_plugin_ops *dtrace_plugin_entry(uint32_t host_abi_version) {
    return host_abi_version >= DTRACE_SDK_ABI_VERSION ? &dtrace::syscall::kOps : nullptr;
}
