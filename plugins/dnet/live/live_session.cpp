// live_session.cpp: the EventPipe session's thread (see live_session.h).
#include "live_session.h"

#include <chrono>
#include <vector>

#include <sys/socket.h>

#include "event_context.h"
#include "event_memory.h"
#include "nettrace/nettrace_reader.h"
#include "nettrace/stream_input.h"

namespace dtrace::dnet::live {

namespace {

constexpr uint32_t kBufferMb = 256;
constexpr int kSocketPollMs = 20;

std::string provider_name(ClrProvider provider) {
    for (const ClrProviderInfo &p : clr_providers()) {
        if (p.provider == provider) {
            return std::string(p.name);
        }
    }
    return {};
}

} // namespace

void LiveSession::report(const std::string &message) const {
    ops_->report_error(host_, message.c_str());
}

// What the reader found damaged since the last call: a damaged block as a
// drop, and each problem's message (file and offset), as a replay reports
// them.
void LiveSession::report_damage(const etw::ReaderStats &stats) {
    if (stats.corrupt_buffers > reported_corrupt_blocks_) {
        ops_->report_drops(host_, 0, stats.corrupt_buffers - reported_corrupt_blocks_, DTRACE_DROP_CORRUPT);
        reported_corrupt_blocks_ = stats.corrupt_buffers;
    }
    for (; reported_problems_ < stats.problem_count; ++reported_problems_) {
        if (reported_problems_ < stats.problems.size()) {
            report(stats.problems[reported_problems_].message);
        }
    }
}

void LiveSession::start() {
    thread_ = std::thread(&LiveSession::run, this);
}

void LiveSession::stop() {
    stopping_.store(true);
    {
        std::lock_guard lock(mutex_);
        if (session_) {
            // Also after the stream's end: a runtime that ended the stream
            // has ended the session and says so; one that is gone cannot be
            // told. Neither is worth a message.
            (void)session_->stop();
        }
        if (stream_fd_ >= 0) {
            shutdown(stream_fd_, SHUT_RDWR); // the reader's next read ends
        }
    }
    if (thread_.joinable()) {
        thread_.join();
    }
}

void LiveSession::run() {
    // Without a session (no socket, a refusal) the probes stay silent and
    // dtrace goes on until the target ends; the end of a session's stream
    // ends dtrace's session too.
    try {
        if (!open_session()) {
            return;
        }
        int fd = -1;
        {
            std::lock_guard lock(mutex_);
            fd = stream_fd_;
        }
        read_stream(fd);
    } catch (const std::exception &e) { // out of memory: end the session rather than the process
        report("the session with process " + std::to_string(pid_) + " stopped: " + e.what());
    }
    if (!stopping_.load()) {
        ops_->input_finished(host_);
    }
}

std::optional<ipc::Connector> LiveSession::reach_runtime() {
    // A runtime that is starting (a -c target) makes its socket, or
    // connects to the port, early on.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kSocketWaitMs);
    if (port_ != nullptr) {
        while (!port_->wait_for_target(kSocketPollMs)) {
            if (stopping_.load() || std::chrono::steady_clock::now() >= deadline) {
                if (!stopping_.load()) {
                    report("process " + std::to_string(pid_) +
                           ": no .NET runtime connected to dtrace's diagnostic port "
                           "within " +
                           std::to_string(kSocketWaitMs / 1000) +
                           " s (not a .NET program, or its diagnostics are disabled); its dnet probes stay silent");
                }
                port_->resume_all(); // one that comes later waits for nobody
                return std::nullopt;
            }
        }
        return port_->connector(kReconnectWaitMs);
    }
    ipc::Result<std::string> socket = ipc::find_diagnostics_socket(pid_);
    while (!socket && !stopping_.load() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(kSocketPollMs));
        socket = ipc::find_diagnostics_socket(pid_);
    }
    if (!socket) {
        if (!stopping_.load()) {
            report(socket.error() + "; its dnet probes stay silent");
        }
        return std::nullopt;
    }
    return ipc::connector_to(socket.value());
}

bool LiveSession::open_session() {
    std::optional<ipc::Connector> runtime = reach_runtime();
    if (!runtime) {
        return false;
    }
    std::vector<ipc::ProviderConfig> providers;
    bool rundown = false;
    for (const NeededProvider &needed : probes_.needed_providers()) {
        providers.push_back({needed.keywords, needed.level, provider_name(needed.provider), ""});
        rundown = rundown || needed.provider == ClrProvider::Rundown;
    }
    ipc::Result<ipc::EventPipeSession> session = ipc::EventPipeSession::start(*runtime, providers, kBufferMb, rundown);
    if (port_ != nullptr) { // the runtime waits at its startup: the session is on (or cannot be), it may go on
        if (!session) {
            port_->resume_all();
        } else if (ipc::Status resumed = ipc::resume_runtime_startup(*runtime); !resumed) {
            report(resumed.error());
        }
    }
    if (!session) {
        report(session.error());
        return false;
    }
    std::lock_guard lock(mutex_);
    session_.emplace(std::move(session.value()));
    stream_fd_ = session_->release_stream();
    return !stopping_.load();
}

void LiveSession::read_stream(int fd) {
    const std::string name = "process " + std::to_string(pid_);
    auto opened = etw::nettrace::NetTraceReader::open_input(etw::nettrace::input_from_fd(fd), name);
    if (!opened) {
        if (!stopping_.load()) {
            report(name + ": " + opened.error());
        }
        std::lock_guard lock(mutex_);
        stream_fd_ = -1; // closed with the input
        return;
    }
    etw::nettrace::NetTraceReader &reader = *opened.value();
    etw::plugin::EventMemory memory;
    EventContext context(memory);
    etw::Event event;
    while (!stopping_.load() && reader.next(event)) {
        report_damage(reader.stats());
        memory.begin(event);
        probes_.dispatch(event, context.set(event), memory);
    }
    if (!stopping_.load()) {
        report_damage(reader.stats()); // a stream cut short says so at its end
    }
    std::lock_guard lock(mutex_);
    stream_fd_ = -1; // the reader closes it
}

} // namespace dtrace::dnet::live
