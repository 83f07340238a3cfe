// predicate_filter.h: the part of a clause's predicate a provider may check
// where its events arise (the SDK's dtrace_filter).
//
// A predicate `A && B && C` holds only if each conjunct does, so any of its
// conjuncts is a necessary condition: an event failing one can skip the
// clause. The compiler hoists the conjuncts that compare one field of the
// firing (pid, tid, uid, gid, execname, arg0..arg9) with a constant ($target
// is one by then) and that D evaluates exactly as a plain 64-bit comparison
// of the field's value: no narrowing cast, ordered comparisons only when D
// compares signed. Conjuncts after one that may have an effect or fault (an
// assignment, a call, a load through a pointer, a division) are not hoisted:
// skipping the event would skip that effect, or the ERROR its fault fires.
// `||` and everything else is simply left to the DIF predicate, which still
// runs: a filter narrows what reaches the VM, never what the VM decides.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dtrace::compiler {

struct Node;

// The numbering is the SDK's (dtrace_filter_field, dtrace_filter_op).
struct FilterTerm {
    enum class Field : uint8_t { Pid = 1, Tid, Uid, Gid, Execname, Arg };
    enum class Cmp : uint8_t { Eq = 1, Ne, Lt, Le, Gt, Ge };
    Field field = Field::Pid;
    uint32_t arg_index = 0; // Arg: which argN
    Cmp op = Cmp::Eq;
    int64_t value = 0;
    std::string string; // Execname: the name

    bool operator==(const FilterTerm &) const = default;
};

// A conjunction of terms; empty when nothing could be hoisted (then every
// event may satisfy the predicate).
using PredicateFilter = std::vector<FilterTerm>;

PredicateFilter hoistable_filter(const Node &predicate);

} // namespace dtrace::compiler
