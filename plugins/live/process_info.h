// process_info.h: the records behind curpsinfo, curlwpsinfo and fds[].
//
// Built only when a clause reads them (the reader asks for their
// addresses): the ids the BPF program recorded at the event, the rest from
// /proc. A process's /proc facts (session, group, arguments, effective ids)
// are cached per pid and refreshed when its comm changes (an exec); a
// thread's (nice, priority, class) are read per firing that asks.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "bpf/live_record.h"
#include "file_records.h"
#include "process_library.h"

namespace dtrace::live {

// What /proc says of a process that an event does not carry.
struct ProcessFacts {
    std::string comm; // the comm they were read under
    int64_t nlwp = 0, pgid = 0, sid = 0, tty = 0, euid = 0, egid = 0, argc = 0;
    uint64_t arg_start = 0, env_start = 0;
    std::string psargs; // the arguments, blank-separated, at most PRARGSZ (80) bytes
};
// ... and of a thread.
struct ThreadFacts {
    int64_t nice = 0, priority = 0;
    std::string class_name; // of its scheduling policy (TS, RT, IA, DL)
};

// `process_dir` is /proc/PID (or /proc/self); what cannot be read is 0 or "".
ProcessFacts read_process_facts(const std::string &process_dir);
// `stat_path` is /proc/PID/task/TID/stat (or /proc/thread-self/stat).
ThreadFacts read_thread_facts(const std::string &stat_path);

class ProcessInfo {
  public:
    // The firing whose records the next reads describe.
    void begin_firing(const live_record &record) {
        record_ = &record;
        psinfo_built_ = false;
        lwpsinfo_built_ = false;
        files_.begin_firing(record.pid);
    }

    // Reads [address, address + length) of the records and their strings
    // (fds[]'s too: file_records.h); -1 when the range is not theirs.
    int64_t read(uint64_t address, void *buffer, size_t length);

    static bool owns(uint64_t address) {
        return (address >= kPsinfoAddress && address < kProcessRecordsEnd) || FileRecords::owns(address);
    }

  private:
    const ProcessFacts &facts_of(uint32_t pid);
    void build_psinfo();
    void build_lwpsinfo();
    const std::string *text(uint64_t slot_address) const;

    const live_record *record_ = nullptr;
    bool psinfo_built_ = false;
    bool lwpsinfo_built_ = false;
    std::array<uint64_t, ps::kSize> psinfo_{};
    std::array<uint64_t, lwp::kSize> lwpsinfo_{};
    std::string fname_, psargs_, clname_, name_;
    std::unordered_map<uint32_t, ProcessFacts> processes_;
    FileRecords files_;
};

} // namespace dtrace::live
