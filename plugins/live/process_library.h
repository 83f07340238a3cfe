// process_library.h: curpsinfo and curlwpsinfo for live probes.
//
// DTrace's psinfo_t and lwpsinfo_t, with the members DTrace documents that
// Linux can fill, are declared in D together with "twins" (live_psinfo_t,
// live_lwpsinfo_t: every member a uint64_t) and translators from the twins.
// curpsinfo and curlwpsinfo translate twins the plugin builds on demand at
// two fixed addresses (process_info.h) from what the BPF program recorded
// and from /proc. Probes that fire in dtrace's own process (BEGIN, END,
// ERROR, the core's portable profile timers) have no plugin's record behind
// them: there the translators give dtrace's own builtins (pid, tid,
// execname ...) and what /proc said of dtrace when the library was made, as
// DTrace, where those probes fire in the dtrace process. Member names and
// string-typed names are those of the etw plugin's psinfo_t where both have
// them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <dtrace/provider.h>

namespace dtrace::live {

// Addresses of the records and their strings: in the kernel half of the
// address space, which no user process's memory occupies, so they never
// shadow an address of the traced process.
inline constexpr uint64_t kPsinfoAddress = 0xffffff0000000000ull;
inline constexpr uint64_t kLwpsinfoAddress = kPsinfoAddress + 0x1000;
inline constexpr uint64_t kProcessTextBase = kPsinfoAddress + 0x10000;
inline constexpr uint64_t kProcessTextSlot = 0x1000; // room for one string
inline constexpr uint64_t kProcessRecordsEnd = kProcessTextBase + 8 * kProcessTextSlot;

// Members, in the order of the twins (record index = member index).
namespace ps {
enum : size_t {
    Nlwp,
    Pid,
    Ppid,
    Pgid,
    Sid,
    Uid,
    Euid,
    Gid,
    Egid,
    Addr,
    Ttydev,
    Fname,  // a text address
    Psargs, // a text address
    Argc,
    Argv,
    Envp,
    Dmodel,
    Taskid,
    Projid,
    Poolid,
    Zoneid,
    kSize
};
}
namespace lwp {
enum : size_t {
    Flag,
    Lwpid,
    Addr,
    Wchan,
    Stype,
    State,
    Sname,
    Nice,
    Syscall,
    Oldpri,
    Cpu,
    Pri,
    Pctcpu,
    Clname, // a text address
    Name,   // a text address
    Onpro,
    Bindpro,
    Bindpset,
    kSize
};
}

// The text slots of the strings the records point to.
enum class ProcessText : uint64_t { Fname = 0, Psargs = 1, Clname = 2, Name = 3 };

inline constexpr uint64_t text_address(ProcessText t) {
    return kProcessTextBase + static_cast<uint64_t>(t) * kProcessTextSlot;
}

// The D source: types, twins, translators, curpsinfo and curlwpsinfo.
const std::string &process_d_library();

// Registers the shared D libraries every live plugin uses:
// process_d_library() as linux/process.d and file_d_library()
// (file_library.h: fileinfo_t, fds[]) as linux/file.d (the first plugin to
// load registers them, the others find them there). Returns 0, or -1 after
// the host has said why.
int register_live_libraries(dtrace_host *host, const dtrace_host_ops *ops);

} // namespace dtrace::live
