// standard_library.h: the D library every program is compiled with, before
// the providers' libraries: what DTrace's own libraries predefine for D
// programs. The network types and constants the inet_*() subroutines take
// (struct layouts are those of the Linux headers: s_addr and s6_addr are
// members, not macros; AF_INET6 has illumos's value, which scripts written
// for DTrace expect and inet_ntop() accepts with Linux's), the fault codes
// of the ERROR probe's arg4 (DTRACEFLT_*), and the errno and signal names.
//
// A program may define a name this library predefines (its own
// `inline int EINVAL = 22;`, a variable named SIGUSR1): the program's
// definition replaces the predefined one (Sema::yield_predefined), where
// DTrace would refuse it as a redefinition (docs/differences.md).
#pragma once

#include "compiler/compile.h"

namespace dtrace::compiler {

const LibrarySource &standard_library();

} // namespace dtrace::compiler
