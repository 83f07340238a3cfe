// demangle.h: C++ and Rust symbol names as people write them, for the
// stacks and symbols the pid provider names (DTrace demangles by default).
#pragma once

#include <string>

namespace dtrace::live {

// `name` demangled (Itanium C++ ABI, and Rust's legacy mangling without its
// hash suffix); `name` itself when it is not mangled.
std::string demangle(const std::string &name);

} // namespace dtrace::live
