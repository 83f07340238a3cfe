// fastpath_user_stacks.h: the plugin's side of ustack() in the kernel
// (docs/fastpath.md, "Stacks"): a process's CFI rows and executable
// mappings (live/stacks/kernel_unwind_table.h) written into the maps of
// rows, blocks and mappings dtrace's walk (core/fastpath/user_stacks.h) reads.
#pragma once

#include "fastpath_loader.h"
#include "image_cache.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dtrace::live {

// The walk's maps, as the loader's handles.
struct UserStackMaps {
    int32_t rows = -1, blocks = -1, mappings = -1;

    bool operator==(const UserStackMaps &) const = default;
};

// Writes process `pid`'s table (as /proc/PID/maps says now, each file's
// image from `images`, as the user-space unwinder opens them) into `maps`;
// false with `error` set (the process is gone, its mappings do not fit the
// map, a map refused an entry).
bool write_user_stack_table(FastpathLoader &loader, const UserStackMaps &maps, int64_t pid, stacks::ImageCache &images,
                            std::string &error);

// The one process whose table a plugin keeps in the walk's maps
// (dtrace_fastpath_ops.fill_user_stack_maps): filled when dtrace's
// programs are loaded, written again when the process has mapped or
// unmapped files (the plugin calls refresh() while the process is stopped,
// so that no walk reads a table half written).
class UserStackTable {
  public:
    // Binds `maps` to `pid` and writes its table; false with `error` when
    // the maps are another process's already or the table cannot be written.
    // Other maps (the installer's next attempt) replace the binding.
    bool fill(FastpathLoader &loader, const UserStackMaps &maps, int64_t pid, stacks::ImageCache &images,
              std::string &error);
    // Writes `pid`'s table again if the maps are its; false with `error`
    // when that fails, the maps then knowing no mapping (every walk sends
    // its event to the user-space path).
    bool refresh(FastpathLoader &loader, int64_t pid, stacks::ImageCache &images, std::string &error);

  private:
    struct Binding {
        int64_t pid = 0;
        UserStackMaps maps;
    };
    std::optional<Binding> bound_;
};

} // namespace dtrace::live
