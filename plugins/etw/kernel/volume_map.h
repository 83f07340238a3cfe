// volume_map.h: NT device paths as drive-letter paths, from the trace's volume mapping.
//
// Kernel events name files by NT path (\Device\HarddiskVolume4\Users\...).
// Merged traces (xperf, WPR, PerfView) carry KernelTraceControl's SysConfig
// VolumeMapping events (class 9b79ee91-b5fd-41c0-a243-4248e266e9d0, opcode
// 35: UTF-16 NtPath, then DosPath), one per volume and symbolic prefix
// (\Device\HarddiskVolume4\ -> C:\, \SystemRoot\ -> C:\WINDOWS\, \??\ -> ""),
// mostly among the rundown at the end of the file. VolumeMap reads them all
// with its own reader of the session the first time a path is asked for
// (they are a few dozen), then maps a path by its longest mapped prefix, as
// PerfView shows paths. A trace without them keeps its NT paths.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reader/event.h"
#include "stack_keys.h"

namespace dtrace::etw::plugin::kernel {

class VolumeMap {
  public:
    // open makes the reader that looks for the mappings, when first needed.
    explicit VolumeMap(StackKeys::Opener open) : open_(std::move(open)) {}

    // The mapping an event gives, if it is a VolumeMapping event.
    static std::optional<std::pair<std::string, std::string>> mapping(const Event &event);

    // path with its NT prefix replaced by the DOS one, and the DOS prefix
    // (the drive, "C:\"); nothing when no mapping covers path.
    struct Mapped {
        std::string path;
        std::string drive;
    };
    std::optional<Mapped> to_dos(const std::string &path);

  private:
    void load();

    StackKeys::Opener open_;
    bool loaded_ = false;
    std::vector<std::pair<std::string, std::string>> mappings_; // NT prefix, DOS prefix
};

} // namespace dtrace::etw::plugin::kernel
