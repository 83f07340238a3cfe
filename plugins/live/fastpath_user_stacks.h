// fastpath_user_stacks.h: the plugin's side of ustack() in the kernel
// (docs/fastpath.md, "Stacks"): a process's CFI rows and executable
// mappings (live/stacks/kernel_unwind_table.h) written into the maps of
// rows, blocks and mappings dtrace's walk (core/fastpath/user_stacks.h) reads.
#pragma once

#include "fastpath_loader.h"
#include "fastpath_user_stack_marks.h"
#include "image_cache.h"
#include "kernel_unwind_table.h"

#include <array>
#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dtrace::live {

// The walk's maps, as the loader's handles.
struct UserStackMaps {
    int32_t rows = -1, blocks = -1, mappings = -1;

    bool operator==(const UserStackMaps &) const = default;
};

// Writes process `pid`'s table (as /proc/PID/maps says now, each file's
// image from `images`, as the user-space unwinder opens them) into `maps`
// that no walk reads yet (a test's, a benchmark's), in one batch per map;
// false with `error` set (the process is gone, its mappings do not fit the
// map, a map refused an entry).
bool write_user_stack_table(FastpathLoader &loader, const UserStackMaps &maps, int64_t pid, stacks::ImageCache &images,
                            std::string &error);

// $target, the process whose table a plugin of every process's probes
// (syscall, sdt) writes: nullopt when the session has none (no -c or -p)
// or it has exited.
std::optional<int64_t> table_process(dtrace_host *host, const dtrace_host_ops *ops);

// The one process whose table a plugin keeps in the walk's maps
// (dtrace_fastpath_ops.fill_user_stack_maps) while walks read them on
// other CPUs. Written when dtrace's programs are loaded, written again
// after the process maps or unmaps files: refresh() at a library load,
// follow_marks() after a mapping call the marks saw (fastpath_user_stack_marks.h).
//
// A write changes only what changed: rows and blocks of files new to the
// table are appended, those of files it holds stay, and the mappings map is
// written in three steps that a walk reading it at any moment cannot mix
// into a wrong frame (fastpath_user_stacks.cpp).
class UserStackTable {
  public:
    UserStackTable();
    ~UserStackTable();

    // Binds `maps` to `pid`, attaches the marks and writes its table; false
    // with `error` when the maps are another process's already or the table
    // cannot be written or followed. Other maps (the installer's next
    // attempt) replace the binding.
    bool fill(FastpathLoader &loader, const UserStackMaps &maps, int64_t pid, stacks::ImageCache &images,
              std::string &error);
    // Writes `pid`'s table again if the maps are its; false with `error`
    // when that fails, every mapping then disabled (every walk sends its
    // event to the user-space path).
    bool refresh(FastpathLoader &loader, int64_t pid, stacks::ImageCache &images, std::string &error);
    // Writes the table again if the marks disabled it since it was last
    // written; false with `error` as refresh().
    bool follow_marks(FastpathLoader &loader, stacks::ImageCache &images, std::string &error);
    // Whether the marks disabled the table since it was last written.
    bool marked() const;

    // What the last write put in the maps (benchmarks, tests).
    struct WriteCounts {
        uint32_t rows = 0, blocks = 0, mappings = 0, grace_periods = 0;
    };
    const WriteCounts &last_write() const { return last_write_; }

  private:
    // A file's code as one mapping maps it: its rows do not depend on where.
    struct FileKey {
        std::string path;
        uint64_t link_start = 0, length = 0;
        auto operator<=>(const FileKey &) const = default;
    };
    // A file's rows and blocks in the maps (rows empty: it has none).
    struct Region {
        stacks::FileUnwindRows file;
        uint32_t first_row = 0, first_block = 0;
    };
    using Entries = std::array<dtrace_fastpath_user_mapping, DTRACE_UNWIND_MAPPINGS_MAX>;
    struct Binding {
        int64_t pid = 0;
        UserStackMaps maps;
        std::unique_ptr<UserStackMarks> marks;
        std::map<FileKey, Region> regions; // the files whose rows are in the maps
        uint32_t rows_used = 0, blocks_used = 0;
        Entries entries{}; // the mappings map as written, nrows as last published
        uint64_t marks_seen = 0;
    };

    bool write(FastpathLoader &loader, Binding &binding, stacks::ImageCache &images, std::string &error);
    // The entries `mappings` want, each file's rows computed once and placed
    // after the others' (all placed again from 0, `relaid`, when they do not fit).
    Entries lay_out(Binding &binding, const std::vector<stacks::Mapping> &mappings, stacks::ImageCache &images,
                    bool &relaid);
    // Writes the rows and blocks of the files placed since the last write (all, `relaid`).
    bool write_new_rows(FastpathLoader &loader, Binding &binding, bool relaid, std::string &error);
    bool write_once(FastpathLoader &loader, Binding &binding, stacks::ImageCache &images, bool &raced,
                    std::string &error);
    // Every mapping's nrows 0: each walk goes to user space.
    void disable(FastpathLoader &loader, Binding &binding);

    std::optional<Binding> bound_;
    WriteCounts last_write_;
};

} // namespace dtrace::live
