// fake_dotnet_app.cpp: a stand-in for a .NET program, for the live dnet tests.
//
//     fake_dotnet_app STREAM.nettrace [--die-after BYTES]
//
// No .NET runtime can be installed on our machines, so the live tests trace
// this program (dtrace -c, or -p): like a runtime, it listens on
// dotnet-diagnostic-<pid>-<key>-socket in $TMPDIR (else /tmp), answers
// CollectTracing2 and streams STREAM's bytes (fake_diagnostics_server.h),
// and ends when the session is stopped (or after 30 s). --die-after closes
// the stream after that many bytes and exits, as a runtime that dies.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <unistd.h>

#include "fake_diagnostics_server.h"

int main(int argc, char **argv) {
    using namespace dtrace::dnet::test;
    if (argc != 2 && !(argc == 4 && std::string(argv[2]) == "--die-after")) {
        std::fprintf(stderr, "usage: %s STREAM.nettrace [--die-after BYTES]\n", argv[0]);
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[1]);
        return 1;
    }
    ServerScript script;
    script.stream.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (argc == 4) {
        script.stop_streaming_after = std::strtoull(argv[3], nullptr, 10);
    }
    const char *tmpdir = std::getenv("TMPDIR");
    FakeDiagnosticsServer server(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp", getpid(), script);
    // The session's command, then (unless it died) its StopTracing.
    const size_t expected = argc == 4 ? 1 : 2;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (server.commands().size() < expected && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    // Let the server finish streaming (a death closes the stream when it is done).
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return 0;
}
