// fake_diagnostics_server.h: a .NET runtime's diagnostics server, as far as
// an EventPipe client sees it, for the tests.
//
// It listens on dotnet-diagnostic-<pid>-<key>-socket in a directory of its
// own (the runtime's default port) and, given a connect port (a runtime
// started with DOTNET_DiagnosticPorts=<path>,connect[,suspend]), also
// connects to <path> as a runtime does: it advertises itself ("ADVR_V1", a
// cookie, its pid), takes one command and connects again for the next. On
// either it answers CollectTracing2 with a session id and then streams the
// bytes it was given on that connection, StopTracing (on another
// connection) by ending the stream, and ResumeRuntime by letting the program
// run. A suspending port holds the program until ResumeRuntime; without one
// it runs from the start. The program's events are logged as it runs, so a
// session sees them only if it started first: one that starts later gets
// stream_after_start when the script has one (the startup events gone). It
// keeps the commands it received for the test to check.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace dtrace::dnet::test {

struct ServerScript {
    std::vector<uint8_t> stream;            // what the session streams
    size_t stop_streaming_after = SIZE_MAX; // close the stream early (a runtime that dies)
    uint32_t refuse_with = 0;               // answer CollectTracing2 with this HRESULT instead
    uint64_t session_id = 0x1122334455667788;
    // What a session gets that starts after the program started running;
    // empty: stream.
    std::vector<uint8_t> stream_after_start;
};

// A diagnostic port the runtime connects to (DOTNET_DiagnosticPorts).
struct ConnectPort {
    std::string path;
    bool suspend = true;
};

class FakeDiagnosticsServer {
  public:
    FakeDiagnosticsServer(const std::string &directory, int64_t pid, ServerScript script,
                          std::optional<ConnectPort> port = std::nullopt);
    ~FakeDiagnosticsServer();

    const std::string &socket_path() const { return path_; }
    // The messages received, one per connection, in order.
    std::vector<std::vector<uint8_t>> commands() const;
    // Waits until the program runs (at once without a suspending port);
    // false after timeout_ms.
    bool wait_until_running(int timeout_ms);
    // Waits until the session was stopped, or its runtime died mid-stream;
    // false after timeout_ms.
    bool wait_for_session_end(int timeout_ms);

  private:
    void listen_loop();
    void connect_loop(const ConnectPort &port);
    // The command on one connection (which it closes, or keeps for a stream).
    void handle(int fd);
    void stream_session(int fd, bool before_running);

    std::string path_;
    int64_t pid_;
    ServerScript script_;
    int listener_ = -1;
    std::atomic<bool> closing_{false};
    std::atomic<int> connected_fd_{-1}; // connect_loop's connection, to shut down at the end
    std::thread listen_thread_;
    std::thread connect_thread_;
    std::thread stream_thread_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::vector<uint8_t>> commands_;
    bool running_ = true;
    bool stop_requested_ = false;
    bool died_ = false;
};

} // namespace dtrace::dnet::test
