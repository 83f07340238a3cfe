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

} // namespace dtrace::live
