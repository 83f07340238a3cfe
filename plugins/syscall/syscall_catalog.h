// syscall_catalog.h: the system calls of the running kernel, from tracefs.
//
// Read lazily: the names when a probe description first names the syscall
// provider (one directory listing of events/syscalls), one call's format
// when its probes are registered. Each call's entry probe takes the
// arguments of its sys_enter_<name> format, typed for D (arg_types.h), and
// says which arguments' memory the BPF program copies at the event:
// a `const char *` is a string (a path as the call saw it), a `const char *`
// or `const void *` followed by its length (write's buf and count) is that
// many bytes. Return probes take the return value twice (arg0, arg1).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bpf/live_record.h"
#include "result.h"

namespace dtrace::syscall {

struct SyscallShape {
    std::vector<std::string> entry_types;  // D types of the entry probe's arguments
    std::vector<std::string> return_types; // D types of arg0 and arg1 on return
    live_capture_spec captures[LIVE_MAX_CAPTURES]{};
};

class SyscallCatalog {
  public:
    // The names of the calls with both an entry and an exit tracepoint.
    live::Result<const std::vector<std::string> *> names();
    // One call's arguments (its format files parsed on first use).
    live::Result<const SyscallShape *> shape(const std::string &name);

  private:
    bool listed_ = false;
    std::vector<std::string> names_;
    std::map<std::string, SyscallShape> shapes_;
};

inline constexpr const char *kSyscallGroup = "syscalls";
inline constexpr const char *kEntryPrefix = "sys_enter_";
inline constexpr const char *kExitPrefix = "sys_exit_";

} // namespace dtrace::syscall
