// source_file.h: reading a D source file (-s scripts, -L library files)
// with a bound, so that a file without end (/dev/zero, a FIFO that never
// closes its write side... ) fails with a message instead of taking all memory.
#pragma once

#include "common/result.h"

#include <cstddef>
#include <string>

namespace dtrace::cli {

// The most bytes of D source one file may hold. D programs are small; the
// largest D library files are a few hundred kilobytes.
constexpr size_t kMaxSourceBytes = size_t(64) << 20;

// The whole file, or why it could not be had: "failed to open F: <strerror>"
// or "failed to read F: the file is larger than 64 MB" (a file without end too).
Result<std::string> read_source_file(const std::string &path, size_t limit = kMaxSourceBytes);

} // namespace dtrace::cli
