// planner.h: which clauses run in the kernel.
//
// A clause runs in the kernel when every probe it is enabled on can run a
// program of dtrace's (its plugin gives the probe's layout), when its code
// translates (program_builder.h), and when nothing it shares has to stay in
// user space: every clause enabled on one of its probes (a probe's events
// either all stay in the kernel or all come to user space), and every
// self-> or global variable it uses (the kernel's copy and the user space's
// would differ). Aggregations may be shared: the kernel's are merged into
// the engine's. Records (trace, printf ...) either all come from the kernel
// or all from user space, the dtrace provider's probes aside: the kernel's
// are read at each buffer switch, and would print out of order with the
// engine's. Each plugin's programs use maps of their own (its ports): a
// clause on probes of two plugins, a variable used on both, and records
// written by both (two rings, read one after the other) stay in user
// space. The rules are applied until nothing changes; each clause left
// in user space keeps the first reason found, for -x fastpath=explain.
#pragma once

#include "fastpath/program_builder.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dtrace::fastpath {

// An enabled probe as the planner sees it.
struct PlannedProbe {
    uint32_t id = 0;
    std::string name;                // provider:module:function:name, for messages
    std::string provider;            // for messages
    std::optional<ProbeShape> shape; // nothing: its plugin cannot run dtrace's programs
    std::vector<ClauseRef> clauses;  // enabled on it, in enabling order
    ProbeIdentity identity;          // its names, and each clause's enabled probe id
    std::string unavailable;         // no shape: why, as its plugin says (empty: not said)
    uint32_t port = 0;               // the plugin whose maps its programs use (one per plugin with a kernel path)
};

// The probes that share one program: their layout, the probe when the
// program serves one probe only (needs_probe_identity() and the probes have
// no word telling them apart, or not distinct ones), the clauses.
struct GroupKey {
    ProbeShape shape;
    uint32_t probe = 0;
    std::vector<ClauseRef> clauses;
    // The probes share a program though their clauses name their probe:
    // they tell themselves apart by shape.probe_word_offset (shared_probes.h).
    bool shared = false;
    uint32_t port = 0; // PlannedProbe::port: a program uses the maps of its probes' plugin

    friend auto operator<=>(const GroupKey &, const GroupKey &) = default;
};

// The layout probes are grouped by: the number of arguments only matters
// to clauses that read them (so that syscall:::entry's probes share one
// program).
ProbeShape grouping_shape(ProbeShape shape, const std::vector<ClauseRef> &clauses);

struct Plan {
    std::map<ClauseRef, std::string> user_space; // clause -> why it stays in user space
    // The probes that run in the kernel, by the program they share.
    std::map<GroupKey, std::vector<const PlannedProbe *>> groups;
};

// `forced`: clauses already known to stay in user space, with why.
Plan make_plan(const std::vector<PlannedProbe> &probes, const std::map<ClauseRef, std::string> &forced,
               const MapPlan &sizes);

// "clause at line N (descriptions)", how the explanation names a clause.
std::string clause_name(const ClauseRef &clause);

} // namespace dtrace::fastpath
