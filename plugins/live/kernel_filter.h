// kernel_filter.h: a probe's in-kernel pre-filter, as the plugin holds it.
//
// The host tells a plugin, per probe, the disjunction of its clauses'
// hoistable predicates: each clause a conjunction of terms comparing pid,
// tid, uid, gid, execname or an integer argument with a constant (or "no
// filter": some clause wants every event). The BPF program drops events no
// clause wants, before they cross into user space; the clauses still run
// their predicates in the DIF VM, so the filter only has to be wide enough,
// never exact. encode_filter() therefore widens what the program cannot
// hold (a term it cannot test is left out, too many clauses pass
// everything) and never narrows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bpf/live_record.h"

namespace dtrace::live {

enum class FilterField { Pid, Tid, Uid, Gid, Execname, Arg };
enum class FilterOp { Eq, Ne, Lt, Le, Gt, Ge };

struct FilterTerm {
    FilterField field = FilterField::Pid;
    uint32_t arg_index = 0; // FilterField::Arg
    FilterOp op = FilterOp::Eq;
    int64_t value = 0;
    std::string string; // FilterField::Execname
};

struct FilterConjunction {
    std::vector<FilterTerm> terms;
};

// any_of empty with everything false passes nothing: no clause wants the
// probe's events (a probe with no enabled clause is not armed anyway).
struct ProbeFilter {
    bool everything = true;
    std::vector<FilterConjunction> any_of;
};

// The BPF program's form of `filter` for a probe with `nargs` arguments.
live_filter encode_filter(const ProbeFilter &filter, uint32_t nargs);

} // namespace dtrace::live
