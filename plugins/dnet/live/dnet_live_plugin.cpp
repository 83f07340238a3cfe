// dnet_live_plugin.cpp: the live dnet plugin through the host's calls (see dnet_live_plugin.h).
#include "dnet_live_plugin.h"

#include <cstddef>
#include <cstdlib>
#include <string>

namespace dtrace::dnet::live {

namespace {

constexpr const char *kDiagnosticPorts = "DOTNET_DiagnosticPorts";

} // namespace

void DnetLivePlugin::offer_diagnostic_port(int64_t pid) {
    const bool has_setenv = ops_->struct_size >= offsetof(dtrace_host_ops, target_setenv) + sizeof ops_->target_setenv;
    if (port_ != nullptr || !has_setenv) { // one program's (the first -c's)
        return;
    }
    ipc::Result<std::unique_ptr<ipc::ReversePort>> port = ipc::ReversePort::open(pid);
    if (!port) {
        ops_->report_error(host_, (port.error() + "; a .NET program's first events will not be seen").c_str());
        return;
    }
    // Added to the user's own ports, if any.
    const char *given = std::getenv(kDiagnosticPorts);
    const std::string entry = port.value()->environment_entry();
    const std::string value = given != nullptr && *given != '\0' ? std::string(given) + ";" + entry : entry;
    if (ops_->target_setenv(host_, pid, kDiagnosticPorts, value.c_str()) == 0) {
        port_ = std::move(port.value());
    }
}

void DnetLivePlugin::target_changed(int64_t pid, uint32_t state) {
    if (state == DTRACE_TARGET_CREATED) {
        offer_diagnostic_port(pid);
        return;
    }
    if (state == DTRACE_TARGET_EXITED && port_ != nullptr) {
        port_->target_exited();
    }
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
        if (port_ != nullptr) {
            port_->resume_all(); // a .NET program waits for nobody
        }
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
    session_ = std::make_unique<LiveSession>(host_, ops_, probes_, target.pid, port_.get());
    session_->start();
    return 0;
}

void DnetLivePlugin::stop() {
    session_.reset(); // stops the session and joins its thread
}

} // namespace dtrace::dnet::live
