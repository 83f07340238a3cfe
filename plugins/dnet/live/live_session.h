// live_session.h: the dnet probes over a live .NET process's EventPipe session.
//
// start() runs a thread that reaches the process's runtime: through
// dtrace's diagnostic port when it has one (a -c program, started with the
// port in its environment: reverse_port.h), else through the runtime's own
// diagnostics socket; either is waited for up to kSocketWaitMs, for a
// runtime that is still starting. It starts a session (CollectTracing2, dnet_ipc) with the
// providers, keywords and level the enabled probes need
// (DnetProbes::needed_providers), reads the nettrace stream as it arrives
// (NetTraceReader::open_input) and hands each event to the dnet probes, with
// the context a replay of the same stream gives it (event_context.h), so a
// script prints the same live as over the file. When the stream ends (the
// runtime stopped the session, exited, or closed its socket mid-stream) the
// thread reports what the reader found damaged and asks the host to end the
// session (END fires). A process without a session (no socket: not .NET, or
// its diagnostics disabled; a refusal) is reported, and dtrace goes on until
// the target ends. A runtime held at its startup by the port is resumed once
// the session is on (so the session sees the program's first events), or at
// once when none could start. stop() sends StopTracing and shuts the stream
// down.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <dtrace/provider.h>

#include "dnet_probes.h"
#include "eventpipe_session.h"
#include "reader/reader_stats.h"
#include "reverse_port.h"

namespace dtrace::dnet::live {

// How long the thread waits for the runtime's socket to appear (or for it
// to connect to the port).
inline constexpr int kSocketWaitMs = 10000;
// How long a runtime at the port may take to connect again for the next
// command (it does at once).
inline constexpr int kReconnectWaitMs = 2000;

class LiveSession {
  public:
    // port: the runtime's diagnostic port (-c), or nullptr (-p).
    LiveSession(dtrace_host *host, const dtrace_host_ops *ops, DnetProbes &probes, int64_t pid, ipc::ReversePort *port)
        : host_(host), ops_(ops), probes_(probes), pid_(pid), port_(port) {}
    ~LiveSession() { stop(); }
    LiveSession(const LiveSession &) = delete;
    LiveSession &operator=(const LiveSession &) = delete;

    void start();
    // Ends the session and joins the thread; harmless when it never started.
    void stop();

  private:
    void run();
    bool open_session(); // false after reporting why
    // How to reach the runtime, once it is there; nothing after reporting why not.
    std::optional<ipc::Connector> reach_runtime();
    void read_stream(int fd);
    void report(const std::string &message) const;
    void report_damage(const etw::ReaderStats &stats);

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    DnetProbes &probes_;
    int64_t pid_;
    ipc::ReversePort *port_;
    std::thread thread_;
    std::atomic<bool> stopping_{false};
    std::mutex mutex_; // guards session_ and stream_fd_ between the thread and stop()
    std::optional<ipc::EventPipeSession> session_;
    int stream_fd_ = -1; // the stream's descriptor while the reader owns it
    uint64_t reported_problems_ = 0;
    uint64_t reported_corrupt_blocks_ = 0;
};

} // namespace dtrace::dnet::live
