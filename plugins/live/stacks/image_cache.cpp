// image_cache.cpp: ELF images by path and by build-id.
#include "image_cache.h"

namespace dtrace::live::stacks {

std::shared_ptr<ElfImage> ImageCache::image_for(const std::string &path, int64_t pid) {
    std::lock_guard lock(mutex_);
    auto known = by_path_.find(path);
    if (known != by_path_.end())
        return known->second;
    std::shared_ptr<ElfImage> image;
    if (!path.empty() && path.front() == '/') {
        std::string error;
        image = ElfImage::open(path, error);
        if (image == nullptr && pid > 0)
            image = ElfImage::open("/proc/" + std::to_string(pid) + "/root" + path, error);
    }
    if (image != nullptr && !image->build_id().empty()) {
        auto [it, inserted] = by_build_id_.emplace(image->build_id(), image);
        if (!inserted)
            image = it->second;
    }
    by_path_.emplace(path, image);
    return image;
}

} // namespace dtrace::live::stacks
