// kernel_groups.h: the event class GUID of each NT kernel hook group.
//
// Kernel records name their event by hook id only. Windows' consumer API
// presents them as classic events of the group's MOF class GUID (ProviderId)
// with the hook's type as opcode; the etw plugin's probes and the kernel
// providers key on those GUIDs, so the reader does the same mapping. One
// exception is hard-wired in Windows too: Process group type 10 is an image
// load and belongs to the Image class. Table in kernel_groups.cpp
// (EVENT_TRACE_GROUP_* from ntwmi.h, GUIDs from wmicore.mof / PerfView).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "reader/guid.h"

namespace dtrace::etw {

// A kernel hook id is (group << 8) | type.
namespace hook {
inline constexpr unsigned kGroupShift = 8;
inline constexpr uint16_t kTypeMask = 0xFF;
} // namespace hook

namespace kernel_group {
inline constexpr uint8_t kCount = 0x1F; // MAX_KERNEL_TRACE_EVENTS
inline constexpr uint8_t kProcess = 0x03;
inline constexpr uint8_t kImageLoadType = 0x0A;
inline constexpr uint8_t kImage = 0x14;
} // namespace kernel_group

// Indexed by group, then the zero GUID for groups without a class.
extern const std::array<Guid, kernel_group::kCount + 1> kKernelClassGuids;

// The class GUID for a hook id; the zero GUID for groups without one.
// Inline: every kernel record asks.
inline const Guid &kernel_class_guid(uint16_t hook_id) {
    uint8_t group = static_cast<uint8_t>(hook_id >> hook::kGroupShift);
    if (group == kernel_group::kProcess && (hook_id & hook::kTypeMask) == kernel_group::kImageLoadType) {
        group = kernel_group::kImage;
    }
    return kKernelClassGuids[group < kernel_group::kCount ? group : kernel_group::kCount];
}

// The class name of a kernel event class GUID ("Process", "DiskIo"); empty
// for other GUIDs. For consumers that name providers (the etw plugin).
std::string_view kernel_class_name(const Guid &class_guid);

// Classes the reader itself needs to recognise.
extern const Guid kEventTraceGuid; // group 0: the logfile header and its extensions
extern const Guid kLostEventGuid;  // RT_LostEvent records

} // namespace dtrace::etw
