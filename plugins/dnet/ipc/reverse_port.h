// reverse_port.h: dtrace's end of a .NET runtime's connect-mode diagnostic
// port, so that a -c program's session sees its events from the first.
//
// With DOTNET_DiagnosticPorts=<path>,connect,suspend in its environment
// (environment_entry(); -c puts it in the program's), a runtime connects to
// <path> early in its startup, advertises itself (ipc_messages.h) and waits
// there until it is sent ResumeRuntime; each command takes a connection, and
// the runtime connects again for the next. ReversePort listens on a socket of
// its own in dtrace's $TMPDIR (else /tmp) and accepts on a thread: the
// target's connections (by the pid its advertise names) wait for connector();
// any other runtime (a child that inherited the environment) is resumed at
// once, and so is the target after resume_all() (no session wanted, or none
// could start). Once a runtime was resumed its later connections are held
// open, unused: a runtime whose connection is closed connects again after a
// pause, for as long as it runs, so a closed one would only come back. A held
// connection that the runtime closes (it exited) is closed and forgotten, so
// that the runtimes of a long -c session (a build's many children) do not add
// up. The destructor closes them all and removes the socket.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <poll.h>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "eventpipe_session.h"

namespace dtrace::dnet::ipc {

class ReversePort {
  public:
    // Listens for the runtime of process `target_pid` (as its own pid
    // namespace numbers it: dtrace's, for a -c program).
    static Result<std::unique_ptr<ReversePort>> open(int64_t target_pid);
    ~ReversePort();
    ReversePort(const ReversePort &) = delete;
    ReversePort &operator=(const ReversePort &) = delete;

    // The DOTNET_DiagnosticPorts entry that points a runtime here.
    std::string environment_entry() const { return path_ + ",connect,suspend"; }
    // Whether the target connected within timeout_ms.
    bool wait_for_target(int timeout_ms);
    // The target's connections, one per command, each awaited at most
    // timeout_ms (less when the target exits: target_exited()).
    Connector connector(int timeout_ms);
    void resume_all();
    void target_exited();
    // Connections of resumed runtimes held open now.
    size_t held_connections();

  private:
    ReversePort(int listener, std::string path, int64_t target_pid);
    void serve();
    // Accepts a connection and reads its advertise.
    void accept_one();
    // Closes the held connections among `held` that polled readable.
    void release_ended(std::span<const pollfd> held);
    void take(int fd, uint64_t pid);
    void resume(int fd, uint64_t pid);
    Result<int> next_target_connection(int timeout_ms);

    int listener_;
    std::string path_;
    uint64_t target_pid_;
    std::mutex mutex_;
    std::condition_variable arrived_;
    std::deque<int> queued_; // the target's connections, not yet used
    std::vector<int> held_;  // later connections of resumed runtimes
    std::set<uint64_t> resumed_;
    bool resume_all_ = false;
    bool target_gone_ = false;
    std::atomic<bool> closing_{false};
    std::thread thread_;
};

} // namespace dtrace::dnet::ipc
