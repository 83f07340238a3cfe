// fake_diagnostics_server.cpp: the tests' diagnostics server (fake_diagnostics_server.h).
#include "fake_diagnostics_server.h"

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ipc_messages.h"

namespace dtrace::dnet::test {

namespace {

constexpr int kReconnectMs = 10;

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

void little_endian(std::vector<uint8_t> &out, uint64_t value, size_t size) {
    for (size_t i = 0; i < size; i++)
        out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

// An answer: OK with a payload of `size` bytes (the session id; a u32
// HRESULT of 0), or an error with an HRESULT.
void answer(int fd, bool ok, uint64_t value, size_t size) {
    std::vector<uint8_t> out{'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V', '1', 0};
    little_endian(out, ipc::kHeaderSize + size, 2);
    out.push_back(ipc::kServerCommandSet);
    out.push_back(ok ? ipc::kServerOk : ipc::kServerError);
    little_endian(out, 0, 2);
    little_endian(out, value, size);
    send_all(fd, out.data(), out.size());
}

// What a runtime says first on a connection it opens.
std::vector<uint8_t> advertise(int64_t pid) {
    std::vector<uint8_t> out{'A', 'D', 'V', 'R', '_', 'V', '1', 0};
    for (uint8_t i = 0; i < 16; i++)
        out.push_back(static_cast<uint8_t>(0xA0 + i)); // the instance cookie
    little_endian(out, static_cast<uint64_t>(pid), 8);
    little_endian(out, 0, 2);
    return out;
}

int connect_to(const std::string &path) {
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0)
        return fd;
    if (fd >= 0)
        close(fd);
    return -1;
}

} // namespace

FakeDiagnosticsServer::FakeDiagnosticsServer(const std::string &directory, int64_t pid, ServerScript script,
                                             std::optional<ConnectPort> port)
    : path_(directory + "/dotnet-diagnostic-" + std::to_string(pid) + "-12345-socket"), pid_(pid),
      script_(std::move(script)), running_(!port || !port->suspend) {
    listener_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path_.c_str(), sizeof address.sun_path - 1);
    // A killed fake app leaves its socket, and a later one may get its pid
    // (a real runtime's name also has its start time; ours is fixed).
    unlink(path_.c_str());
    if (listener_ < 0 || bind(listener_, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0 ||
        listen(listener_, 4) != 0)
        throw std::runtime_error("fake diagnostics server: cannot listen on " + path_);
    listen_thread_ = std::thread(&FakeDiagnosticsServer::listen_loop, this);
    if (port)
        connect_thread_ = std::thread(&FakeDiagnosticsServer::connect_loop, this, *port);
}

FakeDiagnosticsServer::~FakeDiagnosticsServer() {
    closing_.store(true);
    {
        std::lock_guard lock(mutex_);
        changed_.notify_all();
    }
    shutdown(listener_, SHUT_RDWR);
    if (const int fd = connected_fd_.load(); fd >= 0)
        shutdown(fd, SHUT_RDWR);
    listen_thread_.join();
    if (connect_thread_.joinable())
        connect_thread_.join();
    if (stream_thread_.joinable())
        stream_thread_.join();
    close(listener_);
    unlink(path_.c_str());
}

std::vector<std::vector<uint8_t>> FakeDiagnosticsServer::commands() const {
    std::lock_guard lock(mutex_);
    return commands_;
}

bool FakeDiagnosticsServer::wait_until_running(int timeout_ms) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this] { return running_; });
}

bool FakeDiagnosticsServer::wait_for_session_end(int timeout_ms) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this] { return stop_requested_ || died_; });
}

void FakeDiagnosticsServer::listen_loop() {
    for (;;) {
        const int fd = accept(listener_, nullptr, nullptr);
        if (fd < 0)
            return; // shut down, or the runtime died
        handle(fd);
    }
}

void FakeDiagnosticsServer::connect_loop(const ConnectPort &port) {
    // A runtime that died connects no more.
    while (!closing_.load() && !wait_for_session_end(0)) {
        const int fd = connect_to(port.path);
        if (fd < 0) { // the tool is not listening (yet)
            std::this_thread::sleep_for(std::chrono::milliseconds(kReconnectMs));
            continue;
        }
        connected_fd_.store(fd);
        if (closing_.load()) { // the destructor may have looked before the store: it shuts down no fd
            close(fd);
            break;
        }
        const std::vector<uint8_t> hello = advertise(pid_);
        send_all(fd, hello.data(), hello.size());
        handle(fd);
        connected_fd_.store(-1);
    }
}

void FakeDiagnosticsServer::handle(int fd) {
    std::vector<uint8_t> message = read_message(fd);
    const std::optional<ipc::Header> header = ipc::parse_header(message);
    std::unique_lock lock(mutex_);
    if (!header || closing_.load() || died_) {
        close(fd);
        return;
    }
    commands_.push_back(message);
    if (header->command_set == ipc::kProcessCommandSet && header->command_id == ipc::kResumeRuntime) {
        answer(fd, true, 0, sizeof(uint32_t));
        running_ = true;
        changed_.notify_all();
        close(fd);
        return;
    }
    if (header->command_set == ipc::kEventPipeCommandSet && header->command_id == ipc::kStopTracing) {
        answer(fd, true, script_.session_id, sizeof(uint64_t));
        stop_requested_ = true;
        changed_.notify_all();
        close(fd);
        return;
    }
    if (script_.refuse_with != 0 || stream_thread_.joinable()) { // one session at a time
        answer(fd, false, script_.refuse_with != 0 ? script_.refuse_with : 0x80131515, sizeof(uint32_t));
        close(fd);
        return;
    }
    answer(fd, true, script_.session_id, sizeof(uint64_t));
    stream_thread_ = std::thread(&FakeDiagnosticsServer::stream_session, this, fd, !running_);
}

void FakeDiagnosticsServer::stream_session(int fd, bool before_running) {
    {
        // The program's events are logged as it runs.
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return running_ || closing_.load(); });
    }
    const std::vector<uint8_t> &stream =
        before_running || script_.stream_after_start.empty() ? script_.stream : script_.stream_after_start;
    const size_t streamed = std::min(stream.size(), script_.stop_streaming_after);
    send_all(fd, stream.data(), streamed);
    std::unique_lock lock(mutex_);
    if (streamed < stream.size()) { // a runtime that died mid-stream: its socket goes too
        died_ = true;
        changed_.notify_all();
        unlink(path_.c_str());
        shutdown(listener_, SHUT_RDWR);
        close(fd);
        return;
    }
    changed_.wait(lock, [this] { return stop_requested_ || closing_.load(); });
    close(fd); // the end of the stream
}

} // namespace dtrace::dnet::test
