// module_map.cpp: images by process and address.
#include "kernel/module_map.h"

#include "stack_walk.h"

namespace dtrace::etw::plugin::kernel {

void ModuleMap::note(const Event &event, const MofRecord &record) {
    const uint64_t base = record.u("ImageBase");
    const uint64_t size = record.u("ImageSize");
    const std::string &path = record.s("FileName");
    if (size == 0 || path.empty()) {
        return;
    }
    const size_t slash = path.find_last_of("\\/");
    Image image{size, slash == std::string::npos ? path : path.substr(slash + 1)};
    const uint32_t pid = static_cast<uint32_t>(record.u("ProcessId"));
    std::lock_guard lock(mutex_);
    Space &space = pid == 0 || is_kernel_address(base, event.pointer_size) ? kernel_ : processes_[pid];
    // Whatever the new image overlaps is gone.
    auto it = space.lower_bound(base);
    if (it != space.begin() && std::prev(it)->first + std::prev(it)->second.size > base) {
        --it;
    }
    while (it != space.end() && it->first < base + size) {
        it = space.erase(it);
    }
    space.emplace(base, std::move(image));
}

std::optional<ModuleHit> ModuleMap::find_in(const Space &space, uint64_t address) {
    auto it = space.upper_bound(address);
    if (it == space.begin()) {
        return std::nullopt;
    }
    --it;
    if (address - it->first >= it->second.size) {
        return std::nullopt;
    }
    return ModuleHit{it->second.name, address - it->first};
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
