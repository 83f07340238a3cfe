// target_process.cpp: creating, releasing and watching target processes.
#include "cli/target_process.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace dtrace::cli {

namespace {

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

} // namespace

TargetProcess::TargetProcess(TargetProcess &&other) noexcept
    : pid_(other.pid_), created_(other.created_), exited_(other.exited_), go_fd_(other.go_fd_),
      error_fd_(other.error_fd_), command_(std::move(other.command_)) {
    other.pid_ = -1;
    other.go_fd_ = other.error_fd_ = -1;
}

TargetProcess::~TargetProcess() {
    if (go_fd_ >= 0)
        close(go_fd_); // an unreleased child reads EOF and exits without running
    if (error_fd_ >= 0)
        close(error_fd_);
    if (created_ && !exited_ && pid_ > 0)
        waitpid(pid_, nullptr, WNOHANG);
}

TargetProcess TargetProcess::create(const std::string &command, std::string &error) {
    TargetProcess t;
    t.created_ = true;
    t.command_ = command;
    std::vector<std::string> words = split_words(command);
    if (words.empty()) {
        error = "failed to execute '': no command given";
        return t;
    }
    if (int e = find_executable(words[0])) {
        error = "failed to execute " + words[0] + ": " + std::strerror(e);
        return t;
    }
    int go[2], err[2];
    if (pipe2(go, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
        error = std::string("failed to create pipes for ") + command + ": " + std::strerror(errno);
        return t;
    }
    pid_t pid = fork();
    if (pid < 0) {
        error = std::string("failed to fork ") + command + ": " + std::strerror(errno);
        return t;
    }
    if (pid == 0) {
        close(go[1]);
        close(err[0]);
        char byte;
        if (read(go[0], &byte, 1) != 1)
            _exit(127); // dtrace went away before starting us
        std::vector<char *> argv;
        for (std::string &w : words)
            argv.push_back(w.data());
        argv.push_back(nullptr);
        execvp(argv[0], argv.data());
        int e = errno;
        (void)!write(err[1], &e, sizeof e);
        _exit(127);
    }
    close(go[0]);
    close(err[1]);
    t.pid_ = pid;
    t.go_fd_ = go[1];
    t.error_fd_ = err[0];
    return t;
}

TargetProcess TargetProcess::grab(const std::string &pid_text, std::string &error) {
    TargetProcess t;
    char *end = nullptr;
    errno = 0;
    long pid = std::strtol(pid_text.c_str(), &end, 10);
    if (errno != 0 || end == pid_text.c_str() || *end != '\0' || pid <= 0) {
        error = "invalid pid: " + pid_text;
        return t;
    }
    if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
        error = "failed to grab pid " + pid_text + ": No such process";
        return t;
    }
    t.pid_ = static_cast<pid_t>(pid);
    return t;
}

bool TargetProcess::release(std::string &error) {
    if (!created_ || go_fd_ < 0)
        return true;
    char go = 1;
    (void)!write(go_fd_, &go, 1);
    close(go_fd_);
    go_fd_ = -1;
    int e = 0;
    ssize_t n = read(error_fd_, &e, sizeof e);
    close(error_fd_);
    error_fd_ = -1;
    if (n == sizeof e) {
        std::vector<std::string> words = split_words(command_);
        error = "failed to execute " + words[0] + ": " + std::strerror(e);
        waitpid(pid_, nullptr, 0);
        exited_ = true;
        return false;
    }
    return true;
}

bool TargetProcess::poll_exited(std::string &how) {
    if (exited_)
        return true;
    if (created_) {
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) != pid_)
            return false;
        exited_ = true;
        if (WIFSIGNALED(status)) {
            const char *name = sigabbrev_np(WTERMSIG(status));
            how = "pid " + std::to_string(pid_) + " terminated by SIG" + (name ? name : "?");
        } else if (WEXITSTATUS(status) != 0) {
            how = "pid " + std::to_string(pid_) + " exited with status " + std::to_string(WEXITSTATUS(status));
        } else {
            how = "pid " + std::to_string(pid_) + " has exited";
        }
        return true;
    }
    if (kill(pid_, 0) == 0 || errno != ESRCH)
        return false;
    exited_ = true;
    how = "pid " + std::to_string(pid_) + " has exited";
    return true;
}

} // namespace dtrace::cli
