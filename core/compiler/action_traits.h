// action_traits.h: what DTrace's rules need to know about each action kind.
//
// DTrace sorts actions into classes: destructive ones (they change the
// traced system and need -w or `#pragma D option destructive`), the
// speculative ones, and the data-recording ones. The compiler's ordering
// rules (speculation_rules.h), the engine's -w check and its decision to
// write a record for a clause all ask here.
#pragma once

#include "compiler/program.h"

namespace dtrace::compiler {

// stop, raise, system, freopen (DTrace's process-destructive class) and
// chill (kernel-destructive).
inline bool is_destructive(ActionKind kind) {
    switch (kind) {
    case ActionKind::Freopen:
    case ActionKind::System:
    case ActionKind::Raise:
    case ActionKind::Stop:
    case ActionKind::Chill:
        return true;
    default:
        return false;
    }
}

// Whether a firing of the action writes a record to the buffer. Raise,
// stop and chill act in probe context; commit and discard only move
// speculative data; assignments and aggregations record nothing.
inline bool writes_record(ActionKind kind) {
    switch (kind) {
    case ActionKind::Expression:
    case ActionKind::Aggregate:
    case ActionKind::Commit:
    case ActionKind::Discard:
    case ActionKind::Raise:
    case ActionKind::Stop:
    case ActionKind::Chill:
        return false;
    default:
        return true;
    }
}

} // namespace dtrace::compiler
