// target_process.h: the processes of -c (created) and -p (grabbed).
//
// As DTrace does, a -c command is created stopped before its first
// instruction and a -p process is stopped where it runs, both with ptrace,
// while the program is compiled ($target is known) and its probes enabled;
// release() then lets it run, so that `pid == $target` sees the very first
// system call of the new image. The life of a -c command goes:
//
//   create()  forked; the child waits, before exec, for its environment
//             (plugins may extend it: LD_PRELOAD for an in-process agent)
//   exec()    the child execs with PTRACE_TRACEME and stops at exec (SIGTRAP)
//   release() detached: it runs
//   poll_exited() / kill()
//
// A grabbed process is seized and interrupted by grab(), detached by
// release(), and watched through a pidfd (it is not our child). dtrace never
// stops or kills a process it did not create, beyond that brief stop.
#pragma once

#include "common/result.h"

#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace dtrace::cli {

class TargetProcess {
  public:
    using Environment = std::vector<std::pair<std::string, std::string>>;

    // Forks `command` (split at blanks), held before exec.
    static Result<TargetProcess> create(const std::string &command);
    // Stops the running process `pid_text` names until release().
    static Result<TargetProcess> grab(const std::string &pid_text);

    TargetProcess(TargetProcess &&other) noexcept;
    TargetProcess &operator=(TargetProcess &&) = delete;
    // Kills a created process that is still there (as DTrace does when it
    // exits before its command), detaches from a grabbed one.
    ~TargetProcess();

    pid_t pid() const { return pid_; }
    bool created() const { return created_; }
    // A created process: execs with `environment` added and waits until it
    // stops at exec. Fails (in DTrace's words) if exec failed.
    Status exec(const Environment &environment);
    // Lets the process run.
    void release();
    // True once the process is gone; `how` says how, the first time only
    // ("pid 12 has exited", "pid 12 terminated by SIGKILL").
    bool poll_exited(std::string &how);
    // Kills a created process that is still running and reaps it.
    void kill_created();

  private:
    TargetProcess() = default;
    void close_fds();

    pid_t pid_ = -1;
    bool created_ = false;
    bool stopped_ = false; // ptrace-stopped (at exec, or grabbed) until release()
    bool exited_ = false;
    int go_fd_ = -1;    // created: the parent's end the environment is written to
    int error_fd_ = -1; // created: errno of a failed exec, EOF on success
    int pidfd_ = -1;    // readable once the process has exited (created: waited for only then)
    std::string program_;
};

} // namespace dtrace::cli
