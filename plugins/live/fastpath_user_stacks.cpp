// fastpath_user_stacks.cpp: a process's unwind table into the walk's maps (see fastpath_user_stacks.h).
#include "fastpath_user_stacks.h"

#include "kernel_unwind_table.h"
#include "process_maps.h"

#include <fstream>
#include <sstream>

namespace dtrace::live {

bool write_user_stack_table(FastpathLoader &loader, const UserStackMaps &maps, int64_t pid, stacks::ImageCache &images,
                            std::string &error) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/maps");
    if (!in) {
        error = "process " + std::to_string(pid) + " is gone";
        return false;
    }
    std::stringstream text;
    text << in.rdbuf();
    std::optional<stacks::KernelUnwindTable> table = stacks::kernel_unwind_table(
        stacks::parse_maps(text.str()), [&](const std::string &path) { return images.image_for(path, pid); });
    if (!table) {
        error = "process " + std::to_string(pid) + " maps more than " + std::to_string(DTRACE_UNWIND_MAPPINGS_MAX) +
                " executable files";
        return false;
    }
    // The rows and blocks first: a mapping names only entries already written.
    for (uint32_t i = 0; i < table->rows.size(); i++)
        if (!loader.update_map(maps.rows, &i, &table->rows[i], error))
            return false;
    for (uint32_t i = 0; i < table->blocks.size(); i++)
        if (!loader.update_map(maps.blocks, &i, &table->blocks[i], error))
            return false;
    for (uint32_t i = 0; i < table->mappings.size(); i++)
        if (!loader.update_map(maps.mappings, &i, &table->mappings[i], error))
            return false;
    return true;
}

bool UserStackTable::fill(FastpathLoader &loader, const UserStackMaps &maps, int64_t pid, stacks::ImageCache &images,
                          std::string &error) {
    if (bound_ && bound_->maps == maps && bound_->pid == pid)
        return true; // another probe of the same process: written already
    if (bound_ && bound_->maps == maps) {
        error = "the walk's maps hold process " + std::to_string(bound_->pid) + "'s table already";
        return false;
    }
    if (!write_user_stack_table(loader, maps, pid, images, error))
        return false;
    bound_ = Binding{pid, maps};
    return true;
}

bool UserStackTable::refresh(FastpathLoader &loader, int64_t pid, stacks::ImageCache &images, std::string &error) {
    if (!bound_ || bound_->pid != pid || write_user_stack_table(loader, bound_->maps, pid, images, error))
        return true;
    // No mapping known: every walk sends its event to the user-space path,
    // rather than reading rows of a file no longer mapped there.
    const dtrace_fastpath_user_mapping unused{UINT64_MAX, UINT64_MAX, 0, 0, 0, 0, 0};
    std::string ignored;
    for (uint32_t i = 0; i < DTRACE_UNWIND_MAPPINGS_MAX; i++)
        (void)loader.update_map(bound_->maps.mappings, &i, &unused, ignored);
    return false;
}

} // namespace dtrace::live
