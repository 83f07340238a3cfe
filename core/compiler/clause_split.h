// clause_split.h: if/else, the way DTrace implements it: a clause with `if`
// statements is split into several clauses (parts) on the same probes, run
// in order, each with a predicate that lets it run only when control would
// have reached it.
//
// DTrace (dt_sugar.c) rewrites such a "super-clause" into plain D:
//   - the statements between `if`s become Block parts, guarded by the
//     condition they sit under;
//   - each `if` (and the clause's own predicate) becomes a Condition part
//     that evaluates its test once, before anything it guards runs, into a
//     hidden variable: %condition_N = (%condition_<guard> && test), or
//     (1 && test) at the outer level (the && makes the value an int
//     whatever the test's type); an `else` is the Condition
//     (%condition_<guard> && !%condition_<if>);
//   - a ClearErrorFlag part first resets the thread-local self->%error, and
//     every later part's predicate tests it, so that once a part faults the
//     rest of the super-clause is skipped; the flag is set by one
//     SetErrorFlag clause (dtrace:::ERROR { self->%error = 1; }) per program.
// The '%' keeps the hidden names apart from anything a user can write.
//
// Every part is its own enabling, as in DTrace: each records separately
// (without -q each prints its own probe line) and each counts in "matched N
// probes". What a part's predicate and statements are made of is decided
// here, from the syntax alone; sema.h turns parts into typed clauses.
#pragma once

#include "compiler/ast.h"

#include <cstdint>
#include <vector>

namespace dtrace::compiler {

struct ClausePart {
    enum class Kind : uint8_t {
        SetErrorFlag,   // dtrace:::ERROR { self->%error = 1; }
        ClearErrorFlag, // probes { self->%error = 0; }
        Condition,      // probes /!self->%error/ { %condition_<id> = guard && test; }
        Block,          // probes /[!self->%error] [&& %condition_<guard>]/ { statements }
    };
    Kind kind = Kind::Block;
    uint32_t id = 0;    // Condition: the condition it sets (1, 2, ... within the clause)
    uint32_t guard = 0; // Condition, Block: the condition it runs under; 0: none
    // Condition: the test (an `if`'s expression or the clause's predicate),
    // or null for an `else`, whose test is !%condition_<negates>.
    const Expr *test = nullptr;
    uint32_t negates = 0;
    int line = 0;                         // Condition: the line of the test
    bool checks_error_flag = false;       // Block: the predicate tests !self->%error
    std::vector<const Stmt *> statements; // Block: expression statements only
};

// True when the clause's statements contain an `if` (at any depth).
bool has_if(const ProbeClause &c);

// The parts of a clause that has_if(), in order, starting with its
// ClearErrorFlag part. (The SetErrorFlag clause is the caller's: one per program.)
std::vector<ClausePart> split_clause(const ProbeClause &c);

// The hidden variables' names.
inline constexpr const char *kErrorFlagName = "%error";
inline constexpr const char *kConditionPrefix = "%condition_";
inline constexpr const char *kErrorProbe = "dtrace:::ERROR";

} // namespace dtrace::compiler
