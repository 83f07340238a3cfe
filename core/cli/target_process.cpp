// target_process.cpp: creating, stopping, releasing and watching target processes.
#include "cli/target_process.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sstream>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace dtrace::cli {

namespace {

// Room the child reserves, before it forks off, for what plugins add to its
// environment (LD_PRELOAD and the like): it must not allocate after fork.
constexpr size_t kMaxAddedEnvironmentBytes = 64 * 1024;
constexpr size_t kMaxAddedEnvironmentEntries = 256;
// The byte that tells the held child to go on (EOF alone: dtrace went away).
constexpr char kGoMarker = 'G';

std::vector<std::string> split_words(const std::string &text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string w; in >> w;)
        words.push_back(w);
    return words;
}

// Whether execvp() would find `program` (errno when not), checked before
// forking so that a bad command fails before anything is compiled or enabled.
int find_executable(const std::string &program) {
    if (program.find('/') != std::string::npos)
        return access(program.c_str(), X_OK) == 0 ? 0 : errno;
    const char *path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
        if (access(candidate.c_str(), X_OK) == 0)
            return 0;
    }
    return ENOENT;
}

std::string exit_description(pid_t pid, int status) {
    const std::string who = "pid " + std::to_string(pid);
    if (WIFSIGNALED(status)) {
        const char *name = sigabbrev_np(WTERMSIG(status));
        return who + " terminated by SIG" + (name ? name : "?");
    }
    if (WEXITSTATUS(status) != 0)
        return who + " exited with status " + std::to_string(WEXITSTATUS(status));
    return who + " has exited";
}

// The child's side of create(), between fork and exec: only what is safe
// after fork (no allocation; every buffer was made before it).
[[noreturn]] void run_child(int go_fd, int error_fd, char *const *argv, char *added, char **envp) {
    size_t used = 0;
    for (ssize_t n; (n = read(go_fd, added + used, kMaxAddedEnvironmentBytes - 1 - used)) != 0;) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            _exit(127);
        used += size_t(n);
        if (used == kMaxAddedEnvironmentBytes - 1)
            break;
    }
    if (used == 0 || added[0] != kGoMarker)
        _exit(127); // dtrace went away before starting us
    added[used] = '\0';
    // envp = dtrace's environment without the names added, then the additions.
    size_t count = 0;
    for (char **e = environ; *e != nullptr; ++e) {
        bool replaced = false;
        for (char *a = added + 1; a < added + used && !replaced; a += std::strlen(a) + 1) {
            const char *eq = std::strchr(a, '=');
            size_t len = eq ? size_t(eq - a) + 1 : 0;
            replaced = len != 0 && std::strncmp(*e, a, len) == 0;
        }
        if (!replaced)
            envp[count++] = *e;
    }
    for (char *a = added + 1; a < added + used && count < kMaxAddedEnvironmentEntries; a += std::strlen(a) + 1)
        envp[count++] = a;
    envp[count] = nullptr;
    // Stop at exec, with the new image mapped, for dtrace to release.
    if (ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0) {
        int e = errno;
        (void)!write(error_fd, &e, sizeof e);
        _exit(127);
    }
    execvpe(argv[0], argv, envp);
    int e = errno;
    (void)!write(error_fd, &e, sizeof e);
    _exit(127);
}

} // namespace

TargetProcess::TargetProcess(TargetProcess &&other) noexcept
    : pid_(other.pid_), created_(other.created_), stopped_(other.stopped_), exited_(other.exited_),
      go_fd_(other.go_fd_), error_fd_(other.error_fd_), pidfd_(other.pidfd_), program_(std::move(other.program_)) {
    other.pid_ = -1;
    other.go_fd_ = other.error_fd_ = other.pidfd_ = -1;
}

TargetProcess::~TargetProcess() {
    if (pid_ > 0 && created_)
        kill_created();
    else if (pid_ > 0 && stopped_)
        release();
    close_fds();
}

void TargetProcess::close_fds() {
    for (int *fd : {&go_fd_, &error_fd_, &pidfd_}) {
        if (*fd >= 0)
            close(*fd);
        *fd = -1;
    }
}

Result<TargetProcess> TargetProcess::create(const std::string &command) {
    TargetProcess t;
    t.created_ = true;
    std::vector<std::string> words = split_words(command);
    if (words.empty())
        return Failure{"failed to execute '': no command given"};
    t.program_ = words[0];
    if (int e = find_executable(words[0]))
        return Failure{"failed to execute " + words[0] + ": " + std::strerror(e)};
    // Everything the child needs, allocated before fork.
    std::vector<char *> argv;
    for (std::string &w : words)
        argv.push_back(w.data());
    argv.push_back(nullptr);
    size_t inherited = 0;
    for (char **e = environ; *e != nullptr; ++e)
        inherited++;
    std::vector<char> added(kMaxAddedEnvironmentBytes);
    std::vector<char *> envp(inherited + kMaxAddedEnvironmentEntries + 1);
    int go[2], err[2];
    if (pipe2(go, O_CLOEXEC) != 0)
        return Failure{"failed to execute " + words[0] + ": " + std::strerror(errno)};
    if (pipe2(err, O_CLOEXEC) != 0) {
        Failure failure{"failed to execute " + words[0] + ": " + std::strerror(errno)};
        close(go[0]);
        close(go[1]);
        return failure;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(go[1]);
        close(err[0]);
        run_child(go[0], err[1], argv.data(), added.data(), envp.data());
    }
    close(go[0]);
    close(err[1]);
    if (pid < 0) {
        Failure failure{"failed to execute " + words[0] + ": " + std::strerror(errno)};
        close(go[1]);
        close(err[0]);
        return failure;
    }
    t.pid_ = pid;
    t.go_fd_ = go[1];
    t.error_fd_ = err[0];
    // Watched through a pidfd too: a plugin's thread may trace it with
    // ptrace (pid's fallback), and a waitpid() of ours before it has exited
    // would take that thread's ptrace stops (threads of one process share
    // their tracees' reports).
    t.pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
    return t;
}

Status TargetProcess::exec(const Environment &environment) {
    std::string block(1, kGoMarker);
    for (const auto &[name, value] : environment)
        block += name + "=" + value + '\0';
    if (block.size() >= kMaxAddedEnvironmentBytes)
        return Failure{"failed to execute " + program_ + ": the environment plugins added is too large"};
    const char *p = block.data();
    for (size_t left = block.size(); left > 0;) {
        ssize_t n = write(go_fd_, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        p += n;
        left -= size_t(n);
    }
    close(go_fd_);
    go_fd_ = -1;
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSTOPPED(status)) {
        // Stopped at exec. Should dtrace die before releasing it, the
        // kernel kills it rather than leave it stopped forever.
        stopped_ = true;
        ptrace(PTRACE_SETOPTIONS, pid_, nullptr, reinterpret_cast<void *>(PTRACE_O_EXITKILL));
        return {};
    }
    exited_ = true;
    int e = ENOEXEC;
    while (read(error_fd_, &e, sizeof e) < 0 && errno == EINTR) {
    }
    return Failure{"failed to execute " + program_ + ": " + std::strerror(e)};
}

Result<TargetProcess> TargetProcess::grab(const std::string &pid_text) {
    TargetProcess t;
    char *end = nullptr;
    errno = 0;
    long pid = std::strtol(pid_text.c_str(), &end, 10);
    if (errno != 0 || end == pid_text.c_str() || *end != '\0' || pid <= 0 || pid > INT32_MAX)
        return Failure{"invalid pid: " + pid_text};
    auto fail = [&](int e) { return Failure{"failed to grab pid " + std::to_string(pid) + ": " + std::strerror(e)}; };
    t.pid_ = static_cast<pid_t>(pid);
    t.pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, t.pid_, 0));
    if (t.pidfd_ < 0)
        return fail(errno);
    // dtrace itself can only be watched (as DTrace grabs itself noninvasively).
    if (t.pid_ == getpid())
        return t;
    if (ptrace(PTRACE_SEIZE, t.pid_, nullptr, nullptr) != 0)
        return fail(errno);
    int status = 0;
    if (ptrace(PTRACE_INTERRUPT, t.pid_, nullptr, nullptr) != 0 || waitpid(t.pid_, &status, __WALL) != t.pid_) {
        int e = errno;
        ptrace(PTRACE_DETACH, t.pid_, nullptr, nullptr);
        return fail(e);
    }
    t.stopped_ = true;
    return t;
}

void TargetProcess::release() {
    if (!stopped_)
        return;
    ptrace(PTRACE_DETACH, pid_, nullptr, nullptr);
    stopped_ = false;
}

bool TargetProcess::poll_exited(std::string &how) {
    if (exited_)
        return true;
    if (created_) {
        pollfd gone{pidfd_, POLLIN, 0};
        if (pidfd_ >= 0 && poll(&gone, 1, 0) <= 0)
            return false;
        int status = 0;
        const pid_t reaped = waitpid(pid_, &status, WNOHANG);
        if (reaped == 0 || (reaped < 0 && errno != ECHILD))
            return false;
        exited_ = true;
        // ECHILD: a plugin's ptrace thread reaped it (a thread of ours, as its tracer).
        how = reaped == pid_ ? exit_description(pid_, status) : "pid " + std::to_string(pid_) + " has exited";
        return true;
    }
    pollfd p{pidfd_, POLLIN, 0};
    if (poll(&p, 1, 0) <= 0)
        return false;
    exited_ = true;
    how = "pid " + std::to_string(pid_) + " has exited";
    return true;
}

void TargetProcess::kill_created() {
    if (!created_ || exited_ || pid_ <= 0)
        return;
    kill(pid_, SIGKILL);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    exited_ = true;
    stopped_ = false;
}

} // namespace dtrace::cli
