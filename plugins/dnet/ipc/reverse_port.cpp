// reverse_port.cpp: the diagnostic port a -c program's runtime connects to (reverse_port.h).
#include "reverse_port.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace dtrace::dnet::ipc {

namespace {

// How often the accepting thread looks whether it should end.
constexpr int kAcceptPollMs = 100;

std::string temporary_directory() {
    const char *tmpdir = std::getenv("TMPDIR");
    return tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
}

} // namespace

Result<std::unique_ptr<ReversePort>> ReversePort::open(int64_t target_pid) {
    // A directory of our own (mode 0700), so that nobody else can take the name.
    std::string directory = temporary_directory() + "/dtrace-dnet-XXXXXX";
    if (mkdtemp(directory.data()) == nullptr)
        return Error{"cannot make a directory for the diagnostic port in " + temporary_directory() + ": " +
                     std::strerror(errno)};
    const std::string path = directory + "/port";
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || path.size() >= sizeof address.sun_path) {
        const std::string why = fd < 0 ? std::strerror(errno) : "its path is too long";
        if (fd >= 0)
            close(fd);
        rmdir(directory.c_str());
        return Error{"cannot make the diagnostic port " + path + ": " + why};
    }
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    if (bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0 || listen(fd, 8) != 0) {
        const std::string why = std::strerror(errno);
        close(fd);
        unlink(path.c_str());
        rmdir(directory.c_str());
        return Error{"cannot listen on the diagnostic port " + path + ": " + why};
    }
    return std::unique_ptr<ReversePort>(new ReversePort(fd, path, target_pid));
}

ReversePort::ReversePort(int listener, std::string path, int64_t target_pid)
    : listener_(listener), path_(std::move(path)), target_pid_(static_cast<uint64_t>(target_pid)) {
    thread_ = std::thread(&ReversePort::serve, this);
}

ReversePort::~ReversePort() {
    closing_.store(true);
    thread_.join();
    close(listener_);
    for (int fd : queued_)
        close(fd);
    for (int fd : held_)
        close(fd);
    unlink(path_.c_str());
    rmdir(path_.substr(0, path_.rfind('/')).c_str());
}

void ReversePort::serve() {
    std::vector<pollfd> watched;
    while (!closing_.load()) {
        watched.assign(1, pollfd{listener_, POLLIN, 0});
        {
            std::lock_guard lock(mutex_);
            for (int fd : held_)
                watched.push_back(pollfd{fd, POLLIN, 0});
        }
        if (poll(watched.data(), watched.size(), kAcceptPollMs) <= 0)
            continue;
        release_ended(std::span(watched).subspan(1));
        if (watched[0].revents & POLLIN)
            accept_one();
    }
}

void ReversePort::accept_one() {
    const int fd = accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0)
        return;
    uint8_t bytes[kAdvertiseSize];
    const std::optional<Advertise> advertise = read_from_runtime(fd, bytes) ? parse_advertise(bytes) : std::nullopt;
    if (!advertise) { // not a runtime: nothing to say to it
        close(fd);
        return;
    }
    take(fd, advertise->pid);
}

void ReversePort::release_ended(std::span<const pollfd> held) {
    // A runtime never speaks first after its advertise: a held connection
    // that polls readable was closed (the runtime exited, or gave up on it
    // and connects anew).
    std::lock_guard lock(mutex_);
    for (const pollfd &p : held) {
        if (p.revents == 0)
            continue;
        close(p.fd);
        held_.erase(std::find(held_.begin(), held_.end(), p.fd));
    }
}

size_t ReversePort::held_connections() {
    std::lock_guard lock(mutex_);
    return held_.size();
}

void ReversePort::take(int fd, uint64_t pid) {
    std::unique_lock lock(mutex_);
    if (pid == target_pid_ && !resume_all_) {
        queued_.push_back(fd);
        arrived_.notify_all();
        return;
    }
    if (resumed_.count(pid) != 0) {
        held_.push_back(fd);
        return;
    }
    resumed_.insert(pid);
    lock.unlock();
    resume(fd, pid);
}

void ReversePort::resume(int fd, uint64_t pid) {
    // Nobody to tell when a runtime we do not trace cannot be resumed.
    (void)resume_runtime_startup({[fd]() -> Result<int> { return fd; }, "process " + std::to_string(pid)});
}

bool ReversePort::wait_for_target(int timeout_ms) {
    std::unique_lock lock(mutex_);
    return arrived_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this] {
        return !queued_.empty() || target_gone_;
    }) && !queued_.empty();
}

Result<int> ReversePort::next_target_connection(int timeout_ms) {
    std::unique_lock lock(mutex_);
    arrived_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this] { return !queued_.empty() || target_gone_; });
    if (queued_.empty()) {
        return Error{target_gone_
                         ? "the process has exited"
                         : "its runtime did not connect to " + path_ + " within " + std::to_string(timeout_ms) + " ms"};
    }
    const int fd = queued_.front();
    queued_.pop_front();
    return fd;
}

Connector ReversePort::connector(int timeout_ms) {
    return {[this, timeout_ms] { return next_target_connection(timeout_ms); },
            "process " + std::to_string(target_pid_)};
}

void ReversePort::resume_all() {
    std::unique_lock lock(mutex_);
    resume_all_ = true;
    std::deque<int> queued;
    queued.swap(queued_);
    const bool resume_target = !queued.empty() && resumed_.insert(target_pid_).second;
    if (resume_target) {
        lock.unlock();
        resume(queued.front(), target_pid_);
        queued.pop_front();
        lock.lock();
    }
    held_.insert(held_.end(), queued.begin(), queued.end());
}

void ReversePort::target_exited() {
    std::lock_guard lock(mutex_);
    target_gone_ = true;
    arrived_.notify_all();
}

} // namespace dtrace::dnet::ipc
