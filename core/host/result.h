// result.h: the plugin host's errors are the core's (common/result.h).
//
// Everything the host does to a plugin can fail for a reason the user must
// read (a dlerror text, a plugin's own report_error message). The host never
// throws across the plugin boundary, so each operation returns either its
// value or that reason; callers decide whether to go on with the others.
#pragma once

#include "common/result.h"

namespace dtrace::host {

using dtrace::Failure;
using dtrace::Result;
using dtrace::Status;

} // namespace dtrace::host
