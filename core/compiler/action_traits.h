// action_traits.h: what each action kind is, one row per action.
//
// DTrace sorts actions into classes (illumos encodes them in the action's
// number): destructive ones (they change the traced system and need -w or
// `#pragma D option destructive`), the speculative ones, and the
// data-recording ones. Every rule that depends only on the kind asks this
// table: the compiler's code generation (the operands an action carries) and
// its speculation ordering rules, the engine's -w check, its record bounds,
// its decision to write a record for a clause and to wait for the consumer
// in a replay. What each part then does with an action of a kind (sema's
// checks, the engine's action runner, the session's record printer) is a
// switch over ActionKind without `default`, so a new ActionKind does not
// compile quietly (-Wswitch) anywhere until its row and each handler say
// what it is. docs/architecture.md ("Adding an action") lists the places.
#pragma once

#include "compiler/program.h"

namespace dtrace::compiler {

// The operands an action carries from the compiler to the engine
// (program.h's Action fields that code generation fills).
enum class ActionOperands : uint8_t {
    None,         // nothing: the kind says it all
    Effect,       // `value`, evaluated for its side effects (its result is void)
    Value,        // `value`, recorded by its type
    TypedValue,   // `value` and its D type `type`, printed by that type
    IntegerValue, // `value` converted to int (a status, an id, a signal, nanoseconds)
    Arguments,    // `args`, recorded in order
    Formatted,    // `format` and `args`, formatted by the consumer like printf()
    Aggregations, // `printa_aggs`, with an optional `format`
    Aggregate,    // `aggregation`, its keys in `args` and the function's arguments in `agg_args`
    Library,      // `library`, the aggregation it names if any, and `args`
    Plugin,       // `plugin_action` and `args`
};

// How DTrace's ordering rules for speculative clauses (speculation_rules.h)
// treat the action.
enum class SpeculationClass : uint8_t {
    Speculate, // at most one, before any data and before commit()
    Commit,    // at most one, before any data
    Aggregate, // neither after speculate() nor after commit()
    Exit,      // data, and not after speculate()
    Data,      // data: not after commit(); before speculate() it records data
    NoData,    // records no data (destructive ones are refused after speculate())
};

struct ActionTraits {
    // A firing of the action writes a record to the buffer. Raise, stop and
    // chill act in probe context; commit and discard only move speculative
    // data; assignments and aggregations record nothing.
    bool records;
    // stop, raise, system, freopen (DTrace's process-destructive class) and
    // chill (kernel-destructive).
    bool destructive;
    SpeculationClass speculation;
    ActionOperands operands;
    // The consumer acts on the aggregations when it reads the record (printa
    // and the library actions): a replay waits for it (replay_backpressure.h).
    bool consumer_reads_aggregations;
};

constexpr ActionTraits action_traits(ActionKind kind) {
    using S = SpeculationClass;
    using O = ActionOperands;
    // records, destructive, speculation, operands, consumer_reads_aggregations
    switch (kind) {
    case ActionKind::Expression:
        return {false, false, S::NoData, O::Effect, false};
    case ActionKind::Trace:
        return {true, false, S::Data, O::Value, false};
    case ActionKind::Printf:
        return {true, false, S::Data, O::Formatted, false};
    case ActionKind::Printa:
        return {true, false, S::Data, O::Aggregations, true};
    case ActionKind::Exit:
        return {true, false, S::Exit, O::IntegerValue, false};
    case ActionKind::Aggregate:
        return {false, false, S::Aggregate, O::Aggregate, false};
    case ActionKind::Default:
        return {true, false, S::Data, O::None, false};
    case ActionKind::Speculate:
        return {true, false, S::Speculate, O::IntegerValue, false};
    case ActionKind::Commit:
        return {false, false, S::Commit, O::IntegerValue, false};
    case ActionKind::Discard:
        return {false, false, S::NoData, O::IntegerValue, false};
    case ActionKind::Freopen:
        return {true, true, S::NoData, O::Formatted, false};
    case ActionKind::Ftruncate:
        return {true, false, S::Data, O::None, false};
    case ActionKind::System:
        return {true, true, S::NoData, O::Formatted, false};
    case ActionKind::Raise:
        return {false, true, S::NoData, O::IntegerValue, false};
    case ActionKind::Stop:
        return {false, true, S::NoData, O::None, false};
    case ActionKind::Chill:
        return {false, true, S::NoData, O::IntegerValue, false};
    case ActionKind::Library:
        return {true, false, S::Data, O::Library, true};
    case ActionKind::Tracemem:
        return {true, false, S::Data, O::Arguments, false};
    case ActionKind::Print:
        return {true, false, S::Data, O::TypedValue, false};
    case ActionKind::Plugin:
        return {true, false, S::Data, O::Plugin, false};
    }
    return {}; // not reached: every kind has its row
}

inline bool is_destructive(ActionKind kind) {
    return action_traits(kind).destructive;
}

inline bool writes_record(ActionKind kind) {
    return action_traits(kind).records;
}

} // namespace dtrace::compiler
