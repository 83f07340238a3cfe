// action_traits.h: what DTrace's rules need to know about each action kind,
// one row per action.
//
// DTrace sorts actions into classes: destructive ones (they change the
// traced system and need -w or `#pragma D option destructive`), the
// speculative ones, and the data-recording ones. The compiler's ordering
// rules (speculation_rules.h), the engine's -w check and its decision to
// write a record for a clause all ask here. The table is a switch without
// `default`, so a new ActionKind does not compile quietly (-Wswitch) until
// its row says what it is.
#pragma once

#include "compiler/program.h"

namespace dtrace::compiler {

struct ActionTraits {
    // A firing of the action writes a record to the buffer. Raise, stop and
    // chill act in probe context; commit and discard only move speculative
    // data; assignments and aggregations record nothing.
    bool records;
    // stop, raise, system, freopen (DTrace's process-destructive class) and
    // chill (kernel-destructive).
    bool destructive;
};

constexpr ActionTraits action_traits(ActionKind kind) {
    switch (kind) {
    case ActionKind::Expression:
        return {.records = false, .destructive = false};
    case ActionKind::Trace:
        return {.records = true, .destructive = false};
    case ActionKind::Printf:
        return {.records = true, .destructive = false};
    case ActionKind::Printa:
        return {.records = true, .destructive = false};
    case ActionKind::Exit:
        return {.records = true, .destructive = false};
    case ActionKind::Aggregate:
        return {.records = false, .destructive = false};
    case ActionKind::Default:
        return {.records = true, .destructive = false};
    case ActionKind::Speculate:
        return {.records = true, .destructive = false};
    case ActionKind::Commit:
        return {.records = false, .destructive = false};
    case ActionKind::Discard:
        return {.records = false, .destructive = false};
    case ActionKind::Freopen:
        return {.records = true, .destructive = true};
    case ActionKind::Ftruncate:
        return {.records = true, .destructive = false};
    case ActionKind::System:
        return {.records = true, .destructive = true};
    case ActionKind::Raise:
        return {.records = false, .destructive = true};
    case ActionKind::Stop:
        return {.records = false, .destructive = true};
    case ActionKind::Chill:
        return {.records = false, .destructive = true};
    case ActionKind::Library:
        return {.records = true, .destructive = false};
    case ActionKind::Tracemem:
        return {.records = true, .destructive = false};
    case ActionKind::Print:
        return {.records = true, .destructive = false};
    case ActionKind::Plugin:
        return {.records = true, .destructive = false};
    }
    return {.records = true, .destructive = false}; // not reached: every kind has its row
}

inline bool is_destructive(ActionKind kind) {
    return action_traits(kind).destructive;
}

inline bool writes_record(ActionKind kind) {
    return action_traits(kind).records;
}

} // namespace dtrace::compiler
