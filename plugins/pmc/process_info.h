// process_info.h: execname, ppid, uid and gid of the processes samples hit.
//
// Read from /proc/PID/status the first time a pid is sampled or renamed
// (the kernel's comm records report an exec), when dtrace is about to
// release a target it holds (remember), or, sampling every process, of all
// running when it starts (remember_running); a process forked while
// sampling starts as a copy of its parent (the kernel's fork records). Kept,
// also after the process exits. pid 0 is the idle task of each CPU.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace dtrace::pmc {

struct ProcessInfo {
    std::string execname;
    int64_t ppid = -1, uid = -1, gid = -1;
};

class ProcessInfoTable {
  public:
    // The pid's information; valid until the next call (one thread).
    const ProcessInfo &of(int64_t pid, uint32_t cpu);
    void rename(int64_t pid, std::string_view name);
    // A process forked (the kernel's fork records): its parent's name and
    // ids until an exec renames it, kept should it end before it is sampled.
    void inherit(int64_t pid, int64_t parent);
    // Reads the pid's /proc now, from any thread: a short-lived target is
    // gone by the time the samples of its run are read.
    void remember(int64_t pid);
    // remember() of every process /proc lists.
    void remember_running();

  private:
    ProcessInfo &load(int64_t pid);                           // /proc/PID/status at the first sight of a pid
    static std::optional<ProcessInfo> status_of(int64_t pid); // nullopt: the process is gone

    std::mutex lock_; // remember() inserts from another thread; elements never move
    std::unordered_map<int64_t, ProcessInfo> known_;
    ProcessInfo idle_;
};

// Parses the lines of a /proc/PID/status file that ProcessInfo needs.
ProcessInfo parse_status(std::string_view text);

} // namespace dtrace::pmc
