// dnet_live_plugin.cpp: the live dnet plugin through the host's calls (see dnet_live_plugin.h).
#include "dnet_live_plugin.h"

#include <cstddef>

namespace dtrace::dnet::live {

void DnetLivePlugin::target_changed(int64_t, uint32_t state) {
    if (registered_ || state != DTRACE_TARGET_STOPPED) {
        return;
    }
    registered_ = true;
    if (!probes_.register_probes_with_library(host_, ops_)) {
        ops_->report_error(host_, "cannot register the dnet probes");
    }
}

int DnetLivePlugin::enable(dtrace_probe_id, uint64_t cookie) {
    if (!probes_.set_enabled(cookie, true)) {
        ops_->report_error(host_, "no such dnet probe");
        return -1;
    }
    return 0;
}

void DnetLivePlugin::disable(dtrace_probe_id, uint64_t cookie) {
    probes_.set_enabled(cookie, false);
}

int DnetLivePlugin::start() {
    if (!probes_.any_enabled()) {
        return 0;
    }
    dtrace_target_info target{};
    target.struct_size = sizeof target;
    const bool has_get_target = ops_->struct_size >= offsetof(dtrace_host_ops, get_target) + sizeof ops_->get_target;
    if (!has_get_target || ops_->get_target(host_, 0, &target) != 0) {
        ops_->report_error(host_, "the dnet probes trace a .NET process: give it with -p PID or -c COMMAND "
                                  "(or replay a trace with -E FILE)");
        return -1;
    }
    session_ = std::make_unique<LiveSession>(host_, ops_, probes_, target.pid);
    session_->start();
    return 0;
}

void DnetLivePlugin::stop() {
    session_.reset(); // stops the session and joins its thread
}

} // namespace dtrace::dnet::live
