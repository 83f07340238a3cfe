// live_session.h: the dnet probes over a live .NET process's EventPipe session.
//
// start() runs a thread that finds the process's diagnostics socket
// (waiting up to kSocketWaitMs for a runtime that is still starting, as a
// -c target is), starts a session (CollectTracing2, dnet_ipc) with the
// providers, keywords and level the enabled probes need
// (DnetProbes::needed_providers), reads the nettrace stream as it arrives
// (NetTraceReader::open_input) and hands each event to the dnet probes, with
// the context a replay of the same stream gives it (event_context.h), so a
// script prints the same live as over the file. When the stream ends (the
// runtime stopped the session, exited, or closed its socket mid-stream) the
// thread reports what the reader found damaged and asks the host to end the
// session (END fires). A process without a session (no socket: not .NET, or
// its diagnostics disabled; a refusal) is reported, and dtrace goes on until
// the target ends. stop() sends StopTracing and shuts the stream down.
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

namespace dtrace::dnet::live {

// How long the thread waits for the runtime's socket to appear.
inline constexpr int kSocketWaitMs = 10000;

class LiveSession {
  public:
    LiveSession(dtrace_host *host, const dtrace_host_ops *ops, DnetProbes &probes, int64_t pid)
        : host_(host), ops_(ops), probes_(probes), pid_(pid) {}
    ~LiveSession() { stop(); }
    LiveSession(const LiveSession &) = delete;
    LiveSession &operator=(const LiveSession &) = delete;

    void start();
    // Ends the session and joins the thread; harmless when it never started.
    void stop();

  private:
    void run();
    bool open_session(); // false after reporting why
    void read_stream(int fd);
    void report(const std::string &message) const;
    void report_damage(const etw::ReaderStats &stats);

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    DnetProbes &probes_;
    int64_t pid_;
    std::thread thread_;
    std::atomic<bool> stopping_{false};
    std::mutex mutex_; // guards session_ and stream_fd_ between the thread and stop()
    std::optional<ipc::EventPipeSession> session_;
    int stream_fd_ = -1; // the stream's descriptor while the reader owns it
    uint64_t reported_problems_ = 0;
    uint64_t reported_corrupt_blocks_ = 0;
};

} // namespace dtrace::dnet::live
