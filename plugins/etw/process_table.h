// process_table.h: execname and ppid of replayed events.
//
// An ETL record carries only a process id. DTrace's execname and ppid come
// from the kernel's Process events seen earlier in the trace: Start for
// processes created while tracing, DCStart/DCEnd (the rundown a kernel
// session logs at its start and end) for the others. A process keeps its
// entry after it ends, so that late events of its threads still name it,
// until a new process reuses the id. Payload layouts by version:
// etw-formats.md 2 (Process), with 4- or 8-byte pointers as logged.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "reader/event.h"

namespace dtrace::etw::plugin {

struct ProcessInfo {
    std::string execname;
    int64_t ppid = -1;
};

class ProcessTable {
  public:
    // Learns from a Process Start/DCStart/DCEnd event; ignores other events
    // and payloads too short for their version.
    void note(const Event &event);
    // nullptr for a process no event has described.
    const ProcessInfo *find(uint32_t pid) const;

  private:
    std::unordered_map<uint32_t, ProcessInfo> processes_;
};

} // namespace dtrace::etw::plugin
