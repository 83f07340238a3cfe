// program_builder.h: the BPF program of a group of probes: a prologue that
// fetches the builtins the clauses read (once per firing, as DTrace's
// builtins are fixed for a firing), then each clause in enabling order (its
// predicate, then its actions), then `return 0`.
//
// A clause goes to the kernel only when each of its actions does:
// expressions (assignments to self-> and this-> integers), aggregating
// actions, and trace() and printf() of integers and strings the kernel path
// knows (the record goes to the ring: kernel_records.h; so does the probe
// line of an empty clause). Anything else that records (printa, exit ...) or
// acts (speculations ...) throws a Refusal naming it.
#pragma once

#include "compiler/action_traits.h"
#include "fastpath/kernel_frame.h"
#include "fastpath/shared_probes.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace dtrace::fastpath {

struct ClauseRef {
    const compiler::Program *program = nullptr;
    const compiler::Clause *clause = nullptr;

    friend auto operator<=>(const ClauseRef &, const ClauseRef &) = default;
};

// Whether the clause writes records (the probe line of an empty clause too).
bool clause_records(const compiler::Clause &clause);

// The self-> and global variables the clause reads or writes, by name
// ("self->x", "x").
std::set<std::string> variables_of(const compiler::Clause &clause);

// Whether the clauses need a program per probe (probe_identity()): one of
// them records (the record names its enabled probe), can fault
// (copyinstr(): the error names it) or reads the probe's names.
bool needs_probe_identity(const std::vector<ClauseRef> &clauses);

// Whether the clauses' program walks the user stack (a ustack() key:
// user_stacks.h), which may send an event back to user space.
bool walks_user_stacks(const std::vector<ClauseRef> &clauses);

// Whether the clauses read the probe's arguments (arg0..arg9, args[]).
bool reads_arguments(const std::vector<ClauseRef> &clauses);

// Raises plan.string_bytes for the strings the clauses can see
// (kernel_strings.h): their constants, copyinstr()'s strsize, the names of
// `probes` when they read them. Done for every program before any is built,
// as a string key's width is the session's.
void size_strings(MapPlan &plan, const std::vector<ClauseRef> &clauses,
                  const std::vector<const ProbeIdentity *> &probes);

// The encoded instructions; the maps they name are `plan`'s (added as needed).
// `probe`: the one probe the program serves, when needs_probe_identity().
std::vector<uint64_t> build_program(MapPlan &plan, const ProbeShape &shape, const std::vector<ClauseRef> &clauses,
                                    const ProbeIdentity *probe = nullptr);
// The program `shared`'s probes share (shared_probes.h): they tell
// themselves apart by shape.probe_word_offset; their entries' map is added
// to `plan`, with the entries.
std::vector<uint64_t> build_shared_program(MapPlan &plan, const ProbeShape &shape,
                                           const std::vector<ClauseRef> &clauses, SharedProgram &shared);

} // namespace dtrace::fastpath
