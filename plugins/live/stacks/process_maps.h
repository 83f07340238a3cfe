// process_maps.h: the executable file mappings of the processes a live
// plugin has seen, so that their addresses can be unwound and named, even
// after a process has exited.
//
// A process is learnt from /proc/PID/maps the first time it is needed
// (ensure), or from the kernel's records as it maps files (add), execs
// (exec: its old mappings go, and the new image's arrive as records) and
// forks (fork: the child has its parent's), and read again when an address
// it did not map is looked up while it lives. A process whose addresses
// were looked up is not forgotten when it exits: its stacks are printed
// after the fact; one never looked up is forgotten at its exit (exit), so
// that following every process of the machine does not grow without end.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dtrace::live::stacks {

struct Mapping {
    uint64_t start = 0, end = 0; // [start, end)
    uint64_t file_offset = 0;    // of `start`
    std::string path;
};

// The executable, file-backed (or [vdso]-like) mappings of a maps file, sorted.
std::vector<Mapping> parse_maps(std::string_view text);

class ProcessMaps {
  public:
    explicit ProcessMaps(std::string proc = "/proc") : proc_(std::move(proc)) {}

    // Reads /proc/PID/maps unless the process is already known completely.
    void ensure(int64_t pid);
    // A mapping the process made (replaces what it overlaps).
    void add(int64_t pid, Mapping mapping);
    // Adds what /proc/PID/maps holds now (a library loaded since) to what
    // is known; mappings no longer there stay unless overlapped, so that
    // stacks through a library unloaded since are still named.
    void refresh(int64_t pid);
    // The process exec'd: its earlier mappings are gone.
    void exec(int64_t pid);
    // Process `child` was forked from `parent`: it has the same mappings
    // (when the parent is known).
    void fork(int64_t parent, int64_t child);
    // The process ended: forgotten unless an address of it was looked up
    // or it is kept.
    void exit(int64_t pid);
    // Keeps the process's mappings after it exits: a kernel program took
    // addresses of it that are named later (the ustack() walk's table).
    void keep(int64_t pid);
    // The mapping containing `address`, learning the process first if needed.
    std::optional<Mapping> find(int64_t pid, uint64_t address);

  private:
    // The least time between two readings of a process's maps for an
    // address it did not map (JIT code never is).
    static constexpr std::chrono::milliseconds kRereadInterval{20};

    struct Process {
        std::vector<Mapping> mappings; // sorted by start
        bool complete = false;         // read from /proc or followed since exec
        bool looked_up = false;        // find() asked for an address of it
        std::chrono::steady_clock::time_point read_at{};
    };
    void ensure_locked(int64_t pid);
    // Reads /proc/PID/maps into `process`; false when it is gone.
    bool read_locked(int64_t pid, Process &process);
    static std::optional<Mapping> containing(const std::vector<Mapping> &mappings, uint64_t address);

    std::string proc_;
    std::mutex mutex_;
    std::unordered_map<int64_t, Process> processes_;
};

} // namespace dtrace::live::stacks
