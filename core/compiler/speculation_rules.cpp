// speculation_rules.cpp: DTrace's ordering rules for speculative clauses.
#include "compiler/speculation_rules.h"

#include "compiler/action_traits.h"
#include "compiler/sema.h"

namespace dtrace::compiler {

void SpeculationRules::add(const SemaAction &a) {
    const int line = a.line;
    switch (a.kind) {
    case ActionKind::Commit:
        if (commit_)
            raise_error("D_COMM_COMM", line, "commit( ) may not follow commit( )");
        if (recorded_)
            raise_error("D_COMM_DREC", line, "commit( ) may not follow data-recording action(s)");
        commit_ = true;
        return;
    case ActionKind::Speculate:
        if (speculate_)
            raise_error("D_SPEC_SPEC", line, "speculate( ) may not follow speculate( )");
        if (commit_)
            raise_error("D_SPEC_COMM", line, "speculate( ) may not follow commit( )");
        if (recorded_)
            raise_error("D_SPEC_DREC", line, "speculate( ) may not follow data-recording action(s)");
        speculate_ = true;
        return;
    case ActionKind::Aggregate:
        if (commit_)
            raise_error("D_AGG_COMM", line, "aggregating actions may not follow commit( )");
        if (speculate_)
            raise_error("D_AGG_SPEC", line, "aggregating actions may not follow speculate( )");
        recorded_ = true;
        return;
    default:
        break;
    }
    if (speculate_) {
        if (is_destructive(a.kind))
            raise_error("D_ACT_SPEC", line, "destructive actions may not follow speculate( )");
        if (a.kind == ActionKind::Exit)
            raise_error("D_EXIT_SPEC", line, "exit( ) may not follow speculate( )");
    }
    // Destructive actions, discard() and assignments record no data.
    if (is_destructive(a.kind) || a.kind == ActionKind::Discard || a.kind == ActionKind::Expression)
        return;
    if (commit_)
        raise_error("D_DREC_COMM", line, "data-recording actions may not follow commit( )");
    if (!speculate_)
        recorded_ = true;
}

} // namespace dtrace::compiler
