// host_ops.cpp: C trampolines from the SDK's host ops to LoadedPlugin.
//
// A null handle is a plugin bug that must not crash dtrace: every entry
// checks it and answers with the "nothing" value of its return type.
#include "host_ops.h"

#include "loaded_plugin.h"

#include <cstddef>

namespace dtrace::host {

namespace {

LoadedPlugin *plugin_of(dtrace_host *host) {
    return host == nullptr ? nullptr : host->plugin;
}

dtrace_provider_id register_provider(dtrace_host *host, const dtrace_provider_info *info) {
    LoadedPlugin *plugin = plugin_of(host);
    return plugin == nullptr ? 0 : plugin->register_provider(info);
}

dtrace_probe_id register_probe(dtrace_host *host, dtrace_provider_id provider, const dtrace_probe_desc *desc) {
    LoadedPlugin *plugin = plugin_of(host);
    return plugin == nullptr ? 0 : plugin->register_probe(provider, desc);
}

dtrace_probe_id lookup_probe(dtrace_host *host, dtrace_provider_id provider, const char *module, const char *function,
                             const char *name) {
    LoadedPlugin *plugin = plugin_of(host);
    return plugin == nullptr ? 0 : plugin->lookup_probe(provider, module, function, name);
}

void fire(dtrace_host *host, dtrace_probe_id probe, const dtrace_event_ctx *ctx) {
    if (LoadedPlugin *plugin = plugin_of(host))
        plugin->fire(probe, ctx);
}

void report_drops(dtrace_host *host, uint32_t cpu, uint64_t count, dtrace_drop_kind kind) {
    if (LoadedPlugin *plugin = plugin_of(host))
        plugin->sink().report_drops(cpu, count, kind);
}

void report_error(dtrace_host *host, const char *message) {
    if (LoadedPlugin *plugin = plugin_of(host))
        plugin->report_error(message == nullptr ? "(null message)" : message);
}

const char *get_option(dtrace_host *host, const char *name) {
    LoadedPlugin *plugin = plugin_of(host);
    return plugin == nullptr || name == nullptr ? nullptr : plugin->sink().option(name);
}

void input_finished(dtrace_host *host) {
    if (LoadedPlugin *plugin = plugin_of(host))
        plugin->sink().input_finished();
}

int add_trace_timer(dtrace_host *host, dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags) {
    LoadedPlugin *plugin = plugin_of(host);
    return plugin == nullptr ? -1 : plugin->sink().add_trace_timer(probe, interval_ns, flags);
}

int register_action(dtrace_host *host, const dtrace_action_desc *desc) {
    LoadedPlugin *plugin = plugin_of(host);
    return plugin == nullptr ? -1 : plugin->register_action(desc);
}

int add_live_timer(dtrace_host *host, dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags) {
    LoadedPlugin *plugin = plugin_of(host);
    return plugin == nullptr ? -1 : plugin->add_live_timer(probe, interval_ns, flags);
}

void remove_live_timer(dtrace_host *host, dtrace_probe_id probe) {
    if (LoadedPlugin *plugin = plugin_of(host))
        plugin->remove_live_timer(probe);
}

void report_progress(dtrace_host *host, uint64_t done, uint64_t total, uint64_t events) {
    if (LoadedPlugin *plugin = plugin_of(host))
        plugin->sink().report_progress(done, total, events);
}

int get_target(dtrace_host *host, uint32_t index, dtrace_target_info *out) {
    LoadedPlugin *plugin = plugin_of(host);
    return plugin == nullptr || out == nullptr ? -1 : plugin->get_target(index, *out);
}

int target_setenv(dtrace_host *host, int64_t pid, const char *name, const char *value) {
    LoadedPlugin *plugin = plugin_of(host);
    return plugin == nullptr || name == nullptr || value == nullptr ? -1 : plugin->target_setenv(pid, name, value);
}

int register_library(dtrace_host *host, const char *name, const char *d_source) {
    LoadedPlugin *plugin = plugin_of(host);
    return plugin == nullptr ? -1 : plugin->register_library(name, d_source);
}

int probe_usage(dtrace_host *host, dtrace_probe_id probe, dtrace_probe_usage *out) {
    LoadedPlugin *plugin = plugin_of(host);
    if (plugin == nullptr || out == nullptr || out->struct_size < offsetof(dtrace_probe_usage, nfetches))
        return -1;
    return plugin->sink().probe_usage(probe, *out) ? 0 : -1;
}

} // namespace

const dtrace_host_ops host_ops_table = {
    .struct_size = sizeof(dtrace_host_ops),
    .abi_version = DTRACE_SDK_ABI_VERSION,
    .register_provider = register_provider,
    .register_probe = register_probe,
    .lookup_probe = lookup_probe,
    .fire = fire,
    .report_drops = report_drops,
    .report_error = report_error,
    .get_option = get_option,
    .input_finished = input_finished,
    .add_trace_timer = add_trace_timer,
    .register_action = register_action,
    .add_live_timer = add_live_timer,
    .remove_live_timer = remove_live_timer,
    .report_progress = report_progress,
    .get_target = get_target,
    .target_setenv = target_setenv,
    .register_library = register_library,
    .probe_usage = probe_usage,
};

} // namespace dtrace::host
