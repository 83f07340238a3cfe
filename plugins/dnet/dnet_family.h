// dnet_family.h: the unit of the dnet provider — one probe family per file.
//
// The dnet probes present the .NET runtime's events (DotNETRuntime and its
// Rundown provider) with the Windows port's names and grouping: provider
// dnet, module (and function) the family, name the probe. A family (gc,
// jit, event, lock, thread, loader, interop, arm, security) lives in
// family_<name>.cpp: its probe rows (which runtime events fire each probe)
// and its translated types (netgc_t ...: members, their D types, and the
// manifest field each reads). dnet_probes.cpp lists the families in one
// table; docs/probe-families.md describes the pattern.
//
// Every probe's arguments are built alike (dnet_args.h): args[0] the
// family's translated type over the raw payload, read by the event's
// version and the trace's pointer size with the CLR manifest's templates
// (clr_event_table.h); arg1 the payload's length, arg2 0/1 for a 32/64-bit
// process, arg3 the event's version.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "clr_event_table.h"

namespace dtrace::dnet {

// A member of a translated type: its name, D type ("string" for text) and
// the template field it reads (a field the event's template lacks reads as
// 0, or "" for a string).
struct DnetMember {
    std::string_view name;
    std::string_view d_type;
    std::string_view field;
};

// A translated type: `tag`_t in D, over the twin record dnet_`tag`_t.
struct DnetType {
    std::string_view tag;
    std::span<const DnetMember> members;
};

inline constexpr size_t kMaxEventsPerProbe = 2;

// One probe: fired by each event of `provider` whose id is in `ids` (0
// ends the list), every version.
struct DnetProbe {
    std::string_view family;
    std::string_view name;
    ClrProvider provider;
    std::array<uint16_t, kMaxEventsPerProbe> ids;
    const DnetType *type;
};

// The families, each in its own file; dnet_probes.cpp keeps their order.
std::span<const DnetProbe> gc_family();
std::span<const DnetProbe> jit_family();
std::span<const DnetProbe> event_family();
std::span<const DnetProbe> lock_family();
std::span<const DnetProbe> thread_family();
std::span<const DnetProbe> loader_family();
std::span<const DnetProbe> interop_family();
std::span<const DnetProbe> arm_family();
std::span<const DnetProbe> security_family();

} // namespace dtrace::dnet
