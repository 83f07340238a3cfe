// shared_args.h: the arguments two kernel families build the same way.
//
// proc's lwp probes and sched's probes both pass (lwpsinfo_t *, psinfo_t *);
// io's and fsinfo's probes both pass a fileinfo_t *.
#pragma once

#include "kernel/probe_family.h"

namespace dtrace::etw::plugin::kernel {

// lwpsinfo_t * of the event's thread, psinfo_t * of its process.
inline constexpr dtrace_arg_desc kThreadArgs[] = {kernel_arg("etw_lwpsinfo_t *", 0, "lwpsinfo_t *"),
                                                  kernel_arg("etw_psinfo_t *", 1, "psinfo_t *")};
size_t build_thread_args(const ArgContext &c, KernelArgs &args);

// Where in its file an I/O is and how many bytes it moves.
struct IoExtent {
    uint64_t offset = 0;
    uint64_t bcount = 0;
};

// A fileinfo_t of file (0: none) for an I/O of irp, from the event's fields;
// extent, when given, replaces the event's offset and size (io:::start
// has them from the I/O's completion).
uint64_t build_fileinfo(const ArgContext &c, uint64_t file, uint64_t irp, const IoExtent *extent = nullptr);

} // namespace dtrace::etw::plugin::kernel
