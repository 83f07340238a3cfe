// eventpipe_session.h: an EventPipe session of a live .NET process, over the
// runtime's diagnostics socket.
//
// start() opens a connection to the runtime, sends CollectTracing2 and
// reads the session id; the same connection then carries the session's
// events as a nettrace stream (hand it to NetTraceReader through
// input_from_fd). stop() sends StopTracing over a second connection, after
// which the runtime writes its rundown, ends the stream and closes it. A
// connection is the runtime's listening socket (connector_to), or one the
// runtime opened to dtrace's diagnostic port (reverse_port.h).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "ipc_messages.h"
#include "plugin_result.h"

namespace dtrace::dnet::ipc {

using plugin_common::Done;
using plugin_common::Error;
using plugin_common::Result;
using plugin_common::Status;

// The diagnostics socket of .NET process `pid`: the newest
// dotnet-diagnostic-<pid>-*-socket in the process's $TMPDIR (else /tmp),
// seen through /proc/<pid>/root and named by its pid in its own namespace,
// so a process in a container is found too.
Result<std::string> find_diagnostics_socket(int64_t pid);

// Reads exactly out.size() bytes of a runtime's connection, waiting at most
// 5 s for each part.
Status read_from_runtime(int fd, std::span<uint8_t> out);

// How to reach a runtime: one new connection per command, and what to call
// it in messages.
struct Connector {
    std::function<Result<int>()> open;
    std::string name;
};
// The runtime's own listening socket.
Connector connector_to(const std::string &socket_path);

// ResumeRuntime: a runtime held at startup by a suspending diagnostic port
// goes on.
Status resume_runtime_startup(const Connector &runtime);

class EventPipeSession {
  public:
    static Result<EventPipeSession> start(Connector runtime, std::span<const ProviderConfig> providers,
                                          uint32_t buffer_mb, bool rundown);
    static Result<EventPipeSession> start(const std::string &socket_path, std::span<const ProviderConfig> providers,
                                          uint32_t buffer_mb, bool rundown) {
        return start(connector_to(socket_path), providers, buffer_mb, rundown);
    }
    EventPipeSession(EventPipeSession &&other) noexcept;
    EventPipeSession &operator=(EventPipeSession &&other) noexcept;
    ~EventPipeSession();

    uint64_t id() const { return id_; }
    // The connection the events stream on; the caller owns it from now on.
    int release_stream();
    // Ends the session (StopTracing on a new connection).
    Status stop();

  private:
    EventPipeSession(Connector runtime, int stream_fd, uint64_t id);
    Connector runtime_;
    int stream_fd_ = -1;
    uint64_t id_ = 0;
};

} // namespace dtrace::dnet::ipc
