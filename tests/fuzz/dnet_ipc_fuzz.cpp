// dnet_ipc_fuzz.cpp: libFuzzer entry point for what a .NET runtime sends the
// live dnet plugin over its diagnostics IPC (plugins/dnet/ipc).
//
// The first byte says what the rest is:
//   0: a connection's opening on dtrace's diagnostic port (the ADVR_V1
//      advertise, parse_advertise());
//   1: the runtime's side of an EventPipe session: the answer to
//      CollectTracing2 (an OK header and its session id, or an error and its
//      HRESULT), then the session's nettrace stream, read to its end as the
//      live plugin reads it (NetTraceReader over the socket);
//   2: the answer to ResumeRuntime (resume_runtime_startup()).
// The bytes reach the client through a real socket whose far end is shut
// for writing after them, so the client reads them as it reads a runtime's
// and sees the connection close where they end (never its 5 s timeout).
//
// Build with -DDTRACE_BUILD_FUZZERS=ON and clang, then e.g.
//   dnet_ipc_fuzzer -max_total_time=600 corpus/ ${PROJECT_SOURCE_DIR}/tests/fuzz/dnet_ipc_corpus
#include <cstddef>
#include <cstdint>
#include <span>
#include <sys/socket.h>
#include <unistd.h>

#include "eventpipe_session.h"
#include "ipc_messages.h"
#include "nettrace/nettrace_reader.h"

namespace {

using namespace dtrace::dnet::ipc;

constexpr uint64_t kFuzzBlockSize = 1u << 20;
constexpr uint64_t kFuzzPendingBytes = 1u << 20;

enum class Mode : uint8_t { Advertise, Session, Resume };

// A connection to a "runtime" that has sent `bytes` (as many as a socket's
// buffer holds) and will send no more. Its end stays open, so that our
// commands are not refused, until the object goes; ours (`fd`) is the
// client's to close.
struct Runtime {
    int fd = -1;
    int theirs = -1;
    explicit Runtime(std::span<const uint8_t> bytes) {
        int ends[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
            return;
        fd = ends[0];
        theirs = ends[1];
        if (!bytes.empty())
            (void)send(theirs, bytes.data(), bytes.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
        shutdown(theirs, SHUT_WR);
    }
    ~Runtime() {
        if (theirs >= 0)
            close(theirs);
    }
    Connector connector() const {
        return {[fd = fd]() -> Result<int> { return fd; }, "the fuzzed runtime"};
    }
};

void session(std::span<const uint8_t> bytes) {
    Runtime runtime(bytes);
    if (runtime.fd < 0)
        return;
    const ProviderConfig providers[] = {{0x1, 5, "Microsoft-Windows-DotNETRuntime", ""}};
    Result<EventPipeSession> started = EventPipeSession::start(runtime.connector(), providers, 64, false);
    if (!started)
        return; // start() closed the connection
    dtrace::etw::nettrace::NetTraceOptions options;
    options.max_block_size = kFuzzBlockSize;
    options.max_pending_bytes = kFuzzPendingBytes;
    auto reader = dtrace::etw::nettrace::NetTraceReader::open_input(
        dtrace::etw::nettrace::input_from_fd(started.value().release_stream()), "the fuzzed runtime", options);
    if (!reader)
        return;
    volatile uint64_t sink = 0;
    dtrace::etw::Event e;
    while (reader.value()->next(e)) {
        for (uint8_t b : e.payload)
            sink = sink + b;
    }
}

void resume(std::span<const uint8_t> bytes) {
    Runtime runtime(bytes);
    if (runtime.fd >= 0)
        (void)resume_runtime_startup(runtime.connector()); // closes runtime.fd
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0)
        return 0;
    const std::span<const uint8_t> bytes(data + 1, size - 1);
    switch (static_cast<Mode>(data[0] % 3)) {
    case Mode::Advertise:
        if (std::optional<Advertise> advertise = parse_advertise(bytes)) {
            volatile uint64_t sink = advertise->pid + advertise->cookie[15];
            (void)sink;
        }
        break;
    case Mode::Session:
        session(bytes);
        break;
    case Mode::Resume:
        resume(bytes);
        break;
    }
    return 0;
}
