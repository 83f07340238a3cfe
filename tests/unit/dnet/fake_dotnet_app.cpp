// fake_dotnet_app.cpp: a stand-in for a .NET program, for the live dnet tests.
//
//     fake_dotnet_app STREAM.nettrace [--die-after BYTES] [--startup] [--say-running]
//
// No .NET runtime can be installed on our machines, so the live tests trace
// this program (dtrace -c, or -p): like a runtime, it listens on
// dotnet-diagnostic-<pid>-<key>-socket in $TMPDIR (else /tmp), and with
// DOTNET_DiagnosticPorts=<path>,connect[,suspend|nosuspend] in its
// environment it also connects to <path> (the last entry's, when there are
// several), advertises itself and, suspended (the default), waits for
// ResumeRuntime before it runs (fake_diagnostics_server.h). It answers
// CollectTracing2 by streaming STREAM's bytes, and ends when the session is
// stopped (or after 30 s). --startup: STREAM's events are the program's
// startup, logged as it starts running, so a session that starts after that
// gets a stream without them (one without events). --die-after closes the
// stream after that many bytes and exits, as a runtime that dies.
// --say-running prints "running" on stderr once it runs.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <thread>

#include <unistd.h>

#include "fake_diagnostics_server.h"
#include "nettrace_builder.h"

namespace {

constexpr int kLifetimeMs = 30000;

// The last port of a DOTNET_DiagnosticPorts value: "path[,tag...]" entries
// separated by ';'; suspend unless a tag says nosuspend.
std::optional<dtrace::dnet::test::ConnectPort> connect_port(const char *value) {
    if (value == nullptr || *value == '\0') {
        return std::nullopt;
    }
    std::string entry = value;
    entry = entry.substr(entry.rfind(';') == std::string::npos ? 0 : entry.rfind(';') + 1);
    dtrace::dnet::test::ConnectPort port;
    port.path = entry.substr(0, entry.find(','));
    port.suspend = entry.find(",nosuspend") == std::string::npos;
    return port;
}

} // namespace

int main(int argc, char **argv) {
    using namespace dtrace::dnet::test;
    ServerScript script;
    bool startup = false;
    bool say_running = false;
    bool usage_error = false;
    for (int i = 2; i < argc; i++) {
        if (std::strcmp(argv[i], "--startup") == 0) {
            startup = true;
        } else if (std::strcmp(argv[i], "--say-running") == 0) {
            say_running = true;
        } else if (std::strcmp(argv[i], "--die-after") == 0 && i + 1 < argc) {
            script.stop_streaming_after = std::strtoull(argv[++i], nullptr, 10);
        } else {
            usage_error = true;
        }
    }
    if (argc < 2 || usage_error) {
        std::fprintf(stderr,
                     "usage: fake_dotnet_app STREAM.nettrace [--die-after BYTES] [--startup] [--say-running]\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[1]);
        return 1;
    }
    script.stream.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (startup) {
        dtrace::etw::nettrace::fixture::NetTraceBuilder empty({});
        script.stream_after_start = empty.finish();
    }
    const char *tmpdir = std::getenv("TMPDIR");
    FakeDiagnosticsServer server(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp", getpid(), script,
                                 connect_port(std::getenv("DOTNET_DiagnosticPorts")));
    if (!server.wait_until_running(kLifetimeMs)) {
        std::fprintf(stderr, "%s: suspended at startup and never resumed\n", argv[0]);
        return 1;
    }
    if (say_running) {
        std::fprintf(stderr, "running\n");
    }
    server.wait_for_session_end(kLifetimeMs);
    // Let the server finish streaming (a death closes the stream when it is done).
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return 0;
}
