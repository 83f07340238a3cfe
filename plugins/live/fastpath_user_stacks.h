// fastpath_user_stacks.h: the plugin's side of ustack() in the kernel
// (docs/fastpath.md, "Stacks"): a process's CFI rows and executable
// mappings (live/stacks/kernel_unwind_table.h) written into the rows map
// and the mappings map dtrace's walk (core/fastpath/user_stacks.h) reads.
#pragma once

#include "fastpath_loader.h"
#include "image_cache.h"

#include <cstdint>
#include <string>

namespace dtrace::live {

// Writes process `pid`'s table (as /proc/PID/maps says now, each file's
// image from `images`, as the user-space unwinder opens them) into maps
// `rows` and `mappings` of `loader`; false with `error` set (the process
// is gone, its mappings do not fit the map, a map refused an entry).
bool write_user_stack_table(FastpathLoader &loader, int32_t rows, int32_t mappings, int64_t pid,
                            stacks::ImageCache &images, std::string &error);

} // namespace dtrace::live
