// image_cache.h: the ELF images of mapped files, opened once each.
//
// A path is opened the first time a mapping of it is needed (through the
// process's root when the path does not resolve in ours, as for a process in
// a container) and remembered, failures too, so that a missing file costs
// one attempt. Two paths of the same build-id share one image.
#pragma once

#include "elf_image.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace dtrace::live::stacks {

class ImageCache {
  public:
    // The image of `path` as process `pid` maps it; nullptr when it cannot be read.
    std::shared_ptr<ElfImage> image_for(const std::string &path, int64_t pid);

  private:
    std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<ElfImage>> by_path_;
    std::unordered_map<std::string, std::shared_ptr<ElfImage>> by_build_id_;
};

} // namespace dtrace::live::stacks
