// process_table.h: what replayed events say about processes.
//
// An ETL record carries only a process id. DTrace's execname and ppid, and
// the kernel providers' psinfo_t, come from the kernel's Process events seen
// earlier in the trace: Start for processes created while tracing,
// DCStart/DCEnd (the rundown a kernel session logs at its start and end) for
// the others, End for the exit status. A process keeps its entry after it
// ends, so that late events of its threads still name it, until a new
// process reuses the id. Payloads are decoded with the kernel MOF table
// (kernel/mof_classes.h).
#pragma once

#include <cstdint>
#include <string>

#include "kernel/id_table.h"
#include "kernel/mof_classes.h"
#include "reader/event.h"

namespace dtrace::etw::plugin {

struct ProcessInfo {
    std::string execname;
    int64_t ppid = -1;
    uint32_t session_id = 0;
    int32_t exit_status = 0;
    uint64_t key = 0;         // UniqueProcessKey (the EPROCESS address)
    uint8_t pointer_size = 8; // of the kernel that logged it
    std::string command_line;
};

class ProcessTable {
  public:
    // Learns from a Process Start/End/DCStart/DCEnd event; ignores other events
    // and payloads too short for their version.
    void note(const Event &event);
    // The same with the event already decoded (record of the Process class).
    void note(const Event &event, const kernel::MofRecord &record);
    // nullptr for a process no event has described; valid until the next
    // Process event is noted. (Every event asks for its process: inline.)
    const ProcessInfo *find(uint32_t pid) const { return processes_.find(pid); }

  private:
    kernel::IdTable<ProcessInfo> processes_;
    kernel::MofRecord record_;
};

} // namespace dtrace::etw::plugin
