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

#include <cstdint>
#include <string_view>

#include "reader/guid.h"

namespace dtrace::etw {

// The class GUID for a hook id; the zero GUID for groups without one.
const Guid &kernel_class_guid(uint16_t hook_id);

// The class name of a kernel event class GUID ("Process", "DiskIo"); empty
// for other GUIDs. For consumers that name providers (the etw plugin).
std::string_view kernel_class_name(const Guid &class_guid);

// Classes the reader itself needs to recognise.
extern const Guid kEventTraceGuid; // group 0: the logfile header and its extensions
extern const Guid kLostEventGuid;  // RT_LostEvent records

} // namespace dtrace::etw
