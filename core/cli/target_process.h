// target_process.h: the processes of -c (created) and -p (grabbed).
//
// A -c command is forked before the program is compiled (so $target is
// known) but held before exec until tracing has started, so that its first
// instructions can be traced; -p attaches to a running process only in the
// sense of watching it: tracing ends when every target has gone.
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace dtrace::cli {

class TargetProcess {
  public:
    // Forks `command` (split at blanks) held before exec. Empty error on success.
    static TargetProcess create(const std::string &command, std::string &error);
    // Checks that `pid_text` names a live process.
    static TargetProcess grab(const std::string &pid_text, std::string &error);

    TargetProcess(TargetProcess &&other) noexcept;
    TargetProcess &operator=(TargetProcess &&) = delete;
    ~TargetProcess();

    pid_t pid() const { return pid_; }
    // Lets a created process exec. Returns false with `error` if exec failed.
    bool release(std::string &error);
    // True once the process is gone; `how` says how ("pid 12 has exited").
    bool poll_exited(std::string &how);

  private:
    TargetProcess() = default;
    pid_t pid_ = -1;
    bool created_ = false;
    bool exited_ = false;
    int go_fd_ = -1;    // parent's end: writing releases the child
    int error_fd_ = -1; // parent's end: errno of a failed exec, EOF on success
    std::string command_;
};

} // namespace dtrace::cli
