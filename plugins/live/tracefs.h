// tracefs.h: the kernel's tracing filesystem, where tracepoints are listed
// (events/<group>/<event>/) and described (their `format` files).
//
// tracefs is not mounted on a fresh machine here; the first caller mounts it
// at /sys/kernel/tracing (we run as root) and says clearly when that fails.
// Nothing is read before a caller asks: listing a group reads one directory,
// describing an event one file.
#pragma once

#include <string>
#include <vector>

#include "result.h"

namespace dtrace::live {

inline constexpr const char *kTracefsMountPoint = "/sys/kernel/tracing";

// The directory tracefs is mounted on, mounting it at kTracefsMountPoint
// when no mount is found (once per process).
Result<std::string> tracefs_root();

// The event names of a group ("syscalls": sys_enter_read, ...), sorted.
Result<std::vector<std::string>> tracefs_events(const std::string &group);

// The text of events/<group>/<event>/format.
Result<std::string> tracefs_format(const std::string &group, const std::string &event);

// Reads a whole (small) file; the error names the path.
Result<std::string> read_text_file(const std::string &path);

} // namespace dtrace::live
