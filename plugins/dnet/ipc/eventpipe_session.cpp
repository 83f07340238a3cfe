// eventpipe_session.cpp: finding a .NET process's diagnostics socket and
// running an EventPipe session over it (eventpipe_session.h).
#include "eventpipe_session.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <utility>

namespace dtrace::dnet::ipc {

namespace {

// How long the runtime may take to answer a command before we give up.
constexpr int kResponseTimeoutMs = 5000;

std::string errno_text() {
    return std::strerror(errno);
}

// The value of NAME in /proc/<pid>/environ, or "".
std::string environment_value(int64_t pid, const std::string &name) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
    std::string entry;
    while (std::getline(in, entry, '\0'))
        if (entry.compare(0, name.size() + 1, name + "=") == 0)
            return entry.substr(name.size() + 1);
    return "";
}

// The process's pid in its own pid namespace (the last NSpid), which is the
// one its runtime puts in the socket's name.
int64_t namespace_pid(int64_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("NSpid:", 0) != 0)
            continue;
        std::istringstream fields(line.substr(6));
        int64_t last = pid;
        for (int64_t value; fields >> value;)
            last = value;
        return last;
    }
    return pid;
}

constexpr int kRefusedRetries = 50;

Result<int> connect_to(const std::string &path) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof address.sun_path)
        return Error{path + ": the socket's path is too long to connect to"};
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    // A runtime that is starting has bound its socket a moment before it
    // listens on it: a refusal is tried again for kRefusedRetries * 10 ms.
    for (int attempt = 0;; ++attempt) {
        const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return Error{"socket: " + errno_text()};
        if (connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0)
            return fd;
        const bool refused = errno == ECONNREFUSED;
        Error error{"cannot connect to " + path + ": " + errno_text()};
        close(fd);
        if (!refused || attempt == kRefusedRetries)
            return error;
        usleep(10000);
    }
}

Status write_all(int fd, std::span<const uint8_t> bytes) {
    while (!bytes.empty()) {
        const ssize_t n = send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return Error{"cannot send the command: " + errno_text()};
        bytes = bytes.subspan(static_cast<size_t>(n));
    }
    return Done{};
}

} // namespace

Status read_from_runtime(int fd, std::span<uint8_t> out) {
    while (!out.empty()) {
        pollfd p{fd, POLLIN, 0};
        const int ready = poll(&p, 1, kResponseTimeoutMs);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            return Error{"the runtime did not answer within " + std::to_string(kResponseTimeoutMs / 1000) + " s"};
        const ssize_t n = read(fd, out.data(), out.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return Error{"cannot read the runtime's answer: " + errno_text()};
        if (n == 0)
            return Error{"the runtime closed the connection before answering"};
        out = out.subspan(static_cast<size_t>(n));
    }
    return Done{};
}

namespace {

uint64_t little_endian(std::span<const uint8_t> bytes) {
    uint64_t v = 0;
    for (size_t i = bytes.size(); i-- > 0;)
        v = v << 8 | bytes[i];
    return v;
}

// Sends `message` on `fd` and reads the answer's payload, of at most
// `max_payload` bytes (an error answer becomes its HRESULT's message).
Result<std::vector<uint8_t>> command(int fd, std::span<const uint8_t> message, size_t max_payload) {
    if (Status sent = write_all(fd, message); !sent)
        return Error{sent.error()};
    uint8_t header_bytes[kHeaderSize];
    if (Status got = read_from_runtime(fd, header_bytes); !got)
        return Error{got.error()};
    const std::optional<Header> header = parse_header(header_bytes);
    if (!header || header->command_set != kServerCommandSet)
        return Error{"the runtime's answer is not a diagnostics IPC message"};
    if (header->command_id == kServerError) {
        uint8_t hresult[4];
        if (Status got = read_from_runtime(fd, hresult); !got)
            return Error{got.error()};
        return Error{describe_hresult(static_cast<uint32_t>(little_endian(hresult)))};
    }
    if (header->command_id != kServerOk || header->size < kHeaderSize || header->size - kHeaderSize > max_payload)
        return Error{"the runtime's answer has an unexpected shape"};
    std::vector<uint8_t> payload(header->size - kHeaderSize);
    if (Status got = read_from_runtime(fd, payload); !got)
        return Error{got.error()};
    return payload;
}

// A command whose answer is a u64 (a session id).
Result<uint64_t> command_u64(int fd, std::span<const uint8_t> message) {
    Result<std::vector<uint8_t>> answer = command(fd, message, sizeof(uint64_t));
    if (!answer)
        return Error{answer.error()};
    if (answer.value().size() != sizeof(uint64_t))
        return Error{"the runtime's answer has an unexpected shape"};
    return little_endian(answer.value());
}

} // namespace

Result<std::string> find_diagnostics_socket(int64_t pid) {
    const std::string root = "/proc/" + std::to_string(pid) + "/root";
    if (access(root.c_str(), F_OK) != 0)
        return Error{"process " + std::to_string(pid) + " does not exist"};
    std::string tmp = environment_value(pid, "TMPDIR");
    if (tmp.empty())
        tmp = "/tmp";
    const std::string prefix = "dotnet-diagnostic-" + std::to_string(namespace_pid(pid)) + "-";
    std::error_code error;
    std::filesystem::directory_iterator entries(root + tmp, error);
    std::string newest;
    std::filesystem::file_time_type newest_time{};
    for (; !error && entries != std::filesystem::directory_iterator(); entries.increment(error)) {
        const std::string name = entries->path().filename().string();
        if (name.rfind(prefix, 0) != 0 || name.size() < prefix.size() + 7 ||
            name.compare(name.size() - 7, 7, "-socket") != 0)
            continue;
        const auto when = entries->last_write_time(error);
        if (!error && (newest.empty() || when > newest_time)) {
            newest = entries->path().string();
            newest_time = when;
        }
    }
    if (newest.empty())
        return Error{"process " + std::to_string(pid) + " has no .NET diagnostics socket in " + tmp +
                     " (not a .NET process, or its runtime's diagnostics are disabled)"};
    return newest;
}

Connector connector_to(const std::string &socket_path) {
    return {[socket_path] { return connect_to(socket_path); }, socket_path};
}

Status resume_runtime_startup(const Connector &runtime) {
    Result<int> fd = runtime.open();
    if (!fd)
        return Error{fd.error()};
    // The answer: OK, with (today's runtimes) or without (the protocol's
    // text) a u32 HRESULT.
    Result<std::vector<uint8_t>> answer = command(fd.value(), resume_runtime(), sizeof(uint32_t));
    close(fd.value());
    if (!answer)
        return Error{"cannot resume the runtime of " + runtime.name + ": " + answer.error()};
    if (answer.value().size() == sizeof(uint32_t) && little_endian(answer.value()) != 0)
        return Error{"cannot resume the runtime of " + runtime.name + ": " +
                     describe_hresult(static_cast<uint32_t>(little_endian(answer.value())))};
    return Done{};
}

Result<EventPipeSession> EventPipeSession::start(Connector runtime, std::span<const ProviderConfig> providers,
                                                 uint32_t buffer_mb, bool rundown) {
    Result<int> fd = runtime.open();
    if (!fd)
        return Error{fd.error()};
    const std::vector<uint8_t> message = collect_tracing2(buffer_mb, rundown, providers);
    Result<uint64_t> id = command_u64(fd.value(), message);
    if (!id) {
        close(fd.value());
        return Error{"cannot start an EventPipe session on " + runtime.name + ": " + id.error()};
    }
    return EventPipeSession(std::move(runtime), fd.value(), id.value());
}

EventPipeSession::EventPipeSession(Connector runtime, int stream_fd, uint64_t id)
    : runtime_(std::move(runtime)), stream_fd_(stream_fd), id_(id) {}

EventPipeSession::EventPipeSession(EventPipeSession &&other) noexcept
    : runtime_(std::move(other.runtime_)), stream_fd_(std::exchange(other.stream_fd_, -1)), id_(other.id_) {}

EventPipeSession &EventPipeSession::operator=(EventPipeSession &&other) noexcept {
    if (this != &other) {
        if (stream_fd_ >= 0)
            close(stream_fd_);
        runtime_ = std::move(other.runtime_);
        stream_fd_ = std::exchange(other.stream_fd_, -1);
        id_ = other.id_;
    }
    return *this;
}

EventPipeSession::~EventPipeSession() {
    if (stream_fd_ >= 0)
        close(stream_fd_);
}

int EventPipeSession::release_stream() {
    return std::exchange(stream_fd_, -1);
}

Status EventPipeSession::stop() {
    Result<int> fd = runtime_.open();
    if (!fd)
        return Error{fd.error()};
    Result<uint64_t> answered = command_u64(fd.value(), stop_tracing(id_));
    close(fd.value());
    if (!answered)
        return Error{"cannot stop EventPipe session " + std::to_string(id_) + ": " + answered.error()};
    return Done{};
}

} // namespace dtrace::dnet::ipc
