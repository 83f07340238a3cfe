// probe_fields.h: a probe description's fields against the names of a
// process's modules and functions, as the user-space providers (pid, fpid)
// make their probes on demand: each field a shell glob, empty matching
// anything.
#pragma once

#include <fnmatch.h>

#include <cstring>
#include <string>

namespace dtrace::live {

inline bool field_empty(const char *pattern) {
    return pattern == nullptr || pattern[0] == '\0';
}

// Whether a field is a glob (an empty field is not).
inline bool field_is_glob(const char *pattern) {
    return pattern != nullptr && std::strpbrk(pattern, "*?[") != nullptr;
}

inline bool field_matches(const char *pattern, const std::string &name) {
    return field_empty(pattern) || fnmatch(pattern, name.c_str(), 0) == 0;
}

// The name a matched function registers under: the spelling of a
// description that names one of its aliases exactly (__libc_malloc), else
// its canonical name. (A module registers under its file name; its other
// names are aliases the engine matches: dtrace_probe_desc.module_aliases.)
inline std::string registered_function_name(const char *pattern, const std::string &canonical) {
    return field_empty(pattern) || field_is_glob(pattern) ? canonical : std::string(pattern);
}

} // namespace dtrace::live
