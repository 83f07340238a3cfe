// provider_definitions.h: the argument types a provider definition installed
// as a D file declares (`provider p { probe q(int, char *); };`), for the
// usdt plugin (dtrace_host_ops.read_provider_types), which types args[] and
// `dtrace -lv` of a program's static probes from them. The file is parsed
// and compiled by the compiler dtrace -h uses, with its rules and messages.
#pragma once

#include "common/result.h"

#include <string>

namespace dtrace::cli {

// The definitions' types as dtrace -G's table (usdt_types_table), or why the
// file cannot be read: "PATH: line N: <the compiler's message>", "PATH:
// line N: a provider definition holds no probe clauses".
Result<std::string> read_provider_types(const std::string &path);

} // namespace dtrace::cli
