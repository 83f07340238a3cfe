// fake_diagnostics_server.cpp: the tests' diagnostics server (fake_diagnostics_server.h).
#include "fake_diagnostics_server.h"

#include <cstring>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ipc_messages.h"

namespace dtrace::dnet::test {

namespace {

// One message: the header, then as many payload bytes as it says.
std::vector<uint8_t> read_message(int fd) {
    std::vector<uint8_t> bytes(ipc::kHeaderSize);
    if (recv(fd, bytes.data(), bytes.size(), MSG_WAITALL) != static_cast<ssize_t>(bytes.size()))
        return {};
    const auto header = ipc::parse_header(bytes);
    if (!header || header->size < ipc::kHeaderSize)
        return bytes;
    bytes.resize(header->size);
    const size_t payload = header->size - ipc::kHeaderSize;
    if (payload > 0 && recv(fd, bytes.data() + ipc::kHeaderSize, payload, MSG_WAITALL) != static_cast<ssize_t>(payload))
        bytes.resize(ipc::kHeaderSize);
    return bytes;
}

void send_all(int fd, const uint8_t *data, size_t size) {
    while (size > 0) {
        const ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
        if (n <= 0)
            return;
        data += n;
        size -= static_cast<size_t>(n);
    }
}

// An answer: OK with an 8-byte payload, or an error with an HRESULT.
void answer(int fd, bool ok, uint64_t value) {
    const size_t payload = ok ? 8 : 4;
    std::vector<uint8_t> out{'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V', '1', 0};
    out.push_back(static_cast<uint8_t>(ipc::kHeaderSize + payload));
    out.push_back(0);
    out.push_back(ipc::kServerCommandSet);
    out.push_back(ok ? ipc::kServerOk : ipc::kServerError);
    out.push_back(0);
    out.push_back(0);
    for (size_t i = 0; i < payload; i++)
        out.push_back(static_cast<uint8_t>(value >> (8 * i)));
    send_all(fd, out.data(), out.size());
}

} // namespace

FakeDiagnosticsServer::FakeDiagnosticsServer(const std::string &directory, int64_t pid, ServerScript script)
    : path_(directory + "/dotnet-diagnostic-" + std::to_string(pid) + "-12345-socket"), script_(std::move(script)) {
    listener_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path_.c_str(), sizeof address.sun_path - 1);
    if (listener_ < 0 || bind(listener_, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
        listen(listener_, 4) != 0)
        throw std::runtime_error("fake diagnostics server: cannot listen on " + path_);
    thread_ = std::thread(&FakeDiagnosticsServer::serve, this);
}

FakeDiagnosticsServer::~FakeDiagnosticsServer() {
    shutdown(listener_, SHUT_RDWR);
    thread_.join();
    close(listener_);
    unlink(path_.c_str());
}

std::vector<std::vector<uint8_t>> FakeDiagnosticsServer::commands() const {
    std::lock_guard lock(mutex_);
    return commands_;
}

void FakeDiagnosticsServer::serve() {
    const int session = accept(listener_, nullptr, nullptr);
    if (session < 0)
        return;
    std::vector<uint8_t> start = read_message(session);
    {
        std::lock_guard lock(mutex_);
        commands_.push_back(start);
    }
    if (script_.refuse_with != 0) {
        answer(session, false, script_.refuse_with);
        close(session);
        return;
    }
    answer(session, true, script_.session_id);
    const size_t streamed = std::min(script_.stream.size(), script_.stop_streaming_after);
    send_all(session, script_.stream.data(), streamed);
    if (streamed < script_.stream.size()) { // a runtime that died mid-stream: its socket goes too
        unlink(path_.c_str());
        close(session);
        return;
    }
    const int stopper = accept(listener_, nullptr, nullptr);
    if (stopper >= 0) {
        std::vector<uint8_t> stop = read_message(stopper);
        {
            std::lock_guard lock(mutex_);
            commands_.push_back(stop);
        }
        answer(stopper, true, script_.session_id);
        close(stopper);
    }
    close(session); // the end of the stream
}

} // namespace dtrace::dnet::test
