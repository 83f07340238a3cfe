// program_builder.h: the BPF program of a group of probes: a prologue that
// fetches the builtins the clauses read (once per firing, as DTrace's
// builtins are fixed for a firing), then each clause in enabling order (its
// predicate, then its actions), then `return 0`.
//
// A clause goes to the kernel only when each of its actions does:
// expressions (assignments to self-> and this-> integers) and aggregating
// actions. Anything that records (trace, printf, the probe line of an empty
// clause) or acts (exit, speculations ...) throws a Refusal naming it.
#pragma once

#include "fastpath/kernel_frame.h"

#include <cstdint>
#include <vector>

namespace dtrace::fastpath {

struct ClauseRef {
    const compiler::Program *program = nullptr;
    const compiler::Clause *clause = nullptr;

    friend auto operator<=>(const ClauseRef &, const ClauseRef &) = default;
};

// The encoded instructions; the maps they name are `plan`'s (added as needed).
std::vector<uint64_t> build_program(MapPlan &plan, const ProbeShape &shape, const std::vector<ClauseRef> &clauses);

} // namespace dtrace::fastpath
