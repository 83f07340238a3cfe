// standard_library.h: the D library every program is compiled with, before
// the providers' libraries: the network types and constants DTrace's own
// libraries and system headers give D programs (the inet_*() subroutines
// take them). Struct layouts are those of the Linux headers (s_addr and
// s6_addr are members, not macros); AF_INET6 has illumos's value, which
// scripts written for DTrace expect and inet_ntop() accepts with Linux's.
#pragma once

#include "compiler/compile.h"

namespace dtrace::compiler {

inline const LibrarySource kStandardLibrary = {"net.d", R"(
struct in_addr {
	in_addr_t s_addr;
};
struct in6_addr {
	uint8_t s6_addr[16];
};
inline int AF_INET = 2;
inline int AF_INET6 = 26;
)"};

} // namespace dtrace::compiler
