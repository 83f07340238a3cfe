// fastpath_user_stacks.h: the plugin's side of ustack() in the kernel
// (docs/fastpath.md, "Stacks"): a process's CFI rows and executable
// mappings (live/stacks/kernel_unwind_table.h) written into the maps of
// rows, blocks and mappings dtrace's walk (core/fastpath/user_stacks.h) reads.
#pragma once

#include "fastpath_loader.h"
#include "image_cache.h"

#include <cstdint>
#include <string>

namespace dtrace::live {

// The walk's maps, as the loader's handles.
struct UserStackMaps {
    int32_t rows = -1, blocks = -1, mappings = -1;
};

// Writes process `pid`'s table (as /proc/PID/maps says now, each file's
// image from `images`, as the user-space unwinder opens them) into `maps`;
// false with `error` set (the process is gone, its mappings do not fit the
// map, a map refused an entry).
bool write_user_stack_table(FastpathLoader &loader, const UserStackMaps &maps, int64_t pid, stacks::ImageCache &images,
                            std::string &error);

} // namespace dtrace::live
