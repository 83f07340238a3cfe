// module_map.h: which image an address of a replayed stack falls in.
//
// Stacks in a trace are bare program counters. The Image events (load,
// unload, and the rundown a kernel session logs at its start and end) say
// where each process mapped each image, and where the kernel's own images
// (drivers, ntoskrnl.exe; process 0 or a kernel address) are. The replay
// thread adds them as they come; symbol lookups read the map from the
// consumer's thread, so a mutex guards it. An unloaded image stays until
// another is mapped over it: stacks recorded before the unload still name it.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "address_ranges.h"
#include "kernel/mof_classes.h"
#include "reader/event.h"

namespace dtrace::etw::plugin::kernel {

struct ModuleHit {
    std::string module;  // the image's file name, without its directory
    uint64_t offset = 0; // address minus the image's base
};

// A path's last component ("C:\\Windows\\ntdll.dll" -> "ntdll.dll").
std::string image_file_name(const std::string &path);

class ModuleMap {
  public:
    // Learns from an Image event (decoded in record).
    void note(const Event &event, const MofRecord &record);
    // The image holding address in process pid (kUnknownId: the kernel's).
    std::optional<ModuleHit> find(uint32_t pid, uint64_t address) const;

  private:
    using Space = AddressRanges<std::string>; // the images' file names

    static std::optional<ModuleHit> find_in(const Space &space, uint64_t address);

    mutable std::mutex mutex_;
    Space kernel_;
    std::unordered_map<uint32_t, Space> processes_;
};

} // namespace dtrace::etw::plugin::kernel
