// module_map.cpp: images by process and address.
#include "kernel/module_map.h"

#include "stack_walk.h"

namespace dtrace::etw::plugin::kernel {

std::string image_file_name(const std::string &path) {
    const size_t slash = path.find_last_of("\\/");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

void ModuleMap::note(const Event &event, const MofRecord &record) {
    const uint64_t base = record.u("ImageBase");
    const uint64_t size = record.u("ImageSize");
    const std::string &path = record.s("FileName");
    if (size == 0 || path.empty()) {
        return;
    }
    const uint32_t pid = static_cast<uint32_t>(record.u("ProcessId"));
    std::lock_guard lock(mutex_);
    Space &space = pid == 0 || is_kernel_address(base, event.pointer_size) ? kernel_ : processes_[pid];
    space.place(base, size, image_file_name(path));
}

std::optional<ModuleHit> ModuleMap::find_in(const Space &space, uint64_t address) {
    if (auto found = space.find(address)) {
        return ModuleHit{found->value, found->offset};
    }
    return std::nullopt;
}

std::optional<ModuleHit> ModuleMap::find(uint32_t pid, uint64_t address) const {
    std::lock_guard lock(mutex_);
    if (pid != kUnknownId) {
        if (auto p = processes_.find(pid); p != processes_.end()) {
            if (std::optional<ModuleHit> hit = find_in(p->second, address)) {
                return hit;
            }
        }
    }
    return find_in(kernel_, address);
}

} // namespace dtrace::etw::plugin::kernel
