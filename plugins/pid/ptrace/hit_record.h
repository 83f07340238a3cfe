// hit_record.h: a breakpoint hit of the ptrace backend as the uprobe
// program's ring record (live/bpf/uprobe_record.h), so that the pid plugin
// fires it through the one path it has (PidPlugin::deliver).
//
// The record is [live_record][uprobe_tail][stack bytes]: the arguments as
// the uprobe program gives them (entry and offsets: the SysV argument
// registers; return: arg0 the return instruction's offset, arg1 rax), the
// registers with rip at the probed instruction, arg6..arg9 from the stack
// above the return address, and the user stack from rsp when ustack() is
// read. Nothing is captured: the thread stays stopped while the probe
// fires, so copyin() and copyinstr() read its memory as the call sees it.
#pragma once

#include <sys/user.h>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "bpf/uprobe_record.h"

namespace dtrace::pid::ptrace_backend {

// How one probe slot is fired (the ptrace twin of live_probe_config and uprobe_probe_config).
struct HitConfig {
    bool armed = false;
    uint32_t kind = 0; // LIVE_KIND_UPROBE_ENTRY, _RETURN or _OFFSET
    uint32_t nargs = 0;
    bool with_tail = false;   // registers and stack arguments (uregs[], ustack(), arg6..)
    uint32_t stack_bytes = 0; // user stack copied for ustack() (<= UPROBE_STACK_MAX)
    bool stops = false;       // the link-map hook: no record, the plugin reads the process's libraries
};

// Who hit, where: the thread's identity and its registers at the int3
// (rip already moved back to the probed instruction).
struct HitContext {
    int64_t pid = 0, tid = 0, ppid = 0;
    uint32_t uid = 0, gid = 0;
    std::string comm;
    user_regs_struct regs{};
};

// Reads `length` bytes of the stopped thread's memory at `address`; returns how many it read.
using MemoryReader = std::function<size_t(uint64_t address, void *buffer, size_t length)>;

// The record of slot `slot` hit at `offset` in its function (a return probe's arg0).
std::vector<uint8_t> build_hit_record(uint32_t slot, uint32_t offset, const HitConfig &config, const HitContext &hit,
                                      const MemoryReader &read);

} // namespace dtrace::pid::ptrace_backend
