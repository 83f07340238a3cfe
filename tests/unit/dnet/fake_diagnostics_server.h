// fake_diagnostics_server.h: a .NET runtime's diagnostics server, as far as
// an EventPipe client sees it, for the tests.
//
// It listens on dotnet-diagnostic-<pid>-<key>-socket in a directory of its
// own, answers CollectTracing2 with a session id and then streams the bytes
// it was given, and answers StopTracing on a second connection by ending
// the stream. It keeps the commands it received for the test to check.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace dtrace::dnet::test {

struct ServerScript {
    std::vector<uint8_t> stream;            // what the session streams
    size_t stop_streaming_after = SIZE_MAX; // close the stream early (a runtime that dies)
    uint32_t refuse_with = 0;               // answer CollectTracing2 with this HRESULT instead
    uint64_t session_id = 0x1122334455667788;
};

class FakeDiagnosticsServer {
  public:
    FakeDiagnosticsServer(const std::string &directory, int64_t pid, ServerScript script);
    ~FakeDiagnosticsServer();

    const std::string &socket_path() const { return path_; }
    // The messages received, one per connection, in order.
    std::vector<std::vector<uint8_t>> commands() const;

  private:
    void serve();
    std::string path_;
    ServerScript script_;
    int listener_ = -1;
    std::thread thread_;
    mutable std::mutex mutex_;
    std::vector<std::vector<uint8_t>> commands_;
};

} // namespace dtrace::dnet::test
