// library_dirs.h: the D library files of the -L directories.
//
// As dtrace(1) does, every file ending in ".d" in each directory given with
// -L (the libdir option) is compiled before the programs, so its types,
// inlines and translators are known to them. A directory that cannot be read
// is skipped. A library that says `#pragma D depends_on library other.d` is
// compiled after other.d.
#pragma once

#include "common/result.h"
#include "compiler/compile.h"

#include <string>
#include <vector>

namespace dtrace::cli {

// The libraries in the order they are compiled; fails when a dependency
// names a file none of the directories holds.
Result<std::vector<compiler::LibrarySource>> read_library_dirs(const std::vector<std::string> &dirs);

} // namespace dtrace::cli
