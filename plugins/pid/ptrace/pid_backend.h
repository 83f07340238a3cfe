// pid_backend.h: which backend places the pid provider's probes.
//
//   -x pidbackend=auto     uprobes (BPF), or ptrace where the kernel has no
//                          uprobes or refuses the BPF program (the default)
//   -x pidbackend=uprobe   uprobes only: fails where they are missing
//   -x pidbackend=ptrace   int3 breakpoints under ptrace (ptrace_tracer.h),
//                          even where uprobes work (tests, comparisons)
//
// Choosing ptrace by default says so once on stderr, with the cost.
#pragma once

#include <string>

#include <dtrace/provider.h>

#include "result.h"

namespace dtrace::pid::ptrace_backend {

inline constexpr const char *kBackendOption = "pidbackend";

enum class BackendMode { Auto, Uprobe, Ptrace };

// The mode -x pidbackend asks for; an error naming the option otherwise.
live::Result<BackendMode> backend_mode(dtrace_host *host, const dtrace_host_ops *ops);

// The notice printed when auto falls back to ptrace because `why` (the
// uprobe path's error).
std::string fallback_notice(const std::string &why);

} // namespace dtrace::pid::ptrace_backend
