// speculation_rules.cpp: DTrace's ordering rules for speculative clauses.
#include "compiler/speculation_rules.h"

#include "compiler/action_traits.h"
#include "compiler/sema.h"
#include "dif/isa.h"

namespace dtrace::compiler {

namespace {

// An expression that calls copyout() or copyoutstr() is a destructive action
// (DTrace's assembler marks its DIF object so).
bool calls_destructive_subroutine(const Node &n) {
    if (n.kind == NodeKind::Call && (n.id == uint32_t(dif::Subr::Copyout) || n.id == uint32_t(dif::Subr::Copyoutstr)))
        return true;
    for (const NodePtr &kid : n.kids)
        if (kid && calls_destructive_subroutine(*kid))
            return true;
    return false;
}

bool destructive(const SemaAction &a) {
    return is_destructive(a.kind) ||
           (a.kind == ActionKind::Expression && a.value && calls_destructive_subroutine(*a.value));
}

} // namespace

void SpeculationRules::add(const SemaAction &a) {
    const int line = a.line;
    switch (action_traits(a.kind).speculation) {
    case SpeculationClass::Commit:
        if (commit_)
            raise_error(Tag::D_COMM_COMM, line, "commit( ) may not follow commit( )");
        if (recorded_)
            raise_error(Tag::D_COMM_DREC, line, "commit( ) may not follow data-recording action(s)");
        commit_ = true;
        return;
    case SpeculationClass::Speculate:
        if (speculate_)
            raise_error(Tag::D_SPEC_SPEC, line, "speculate( ) may not follow speculate( )");
        if (commit_)
            raise_error(Tag::D_SPEC_COMM, line, "speculate( ) may not follow commit( )");
        if (recorded_)
            raise_error(Tag::D_SPEC_DREC, line, "speculate( ) may not follow data-recording action(s)");
        speculate_ = true;
        return;
    case SpeculationClass::Aggregate:
        if (commit_)
            raise_error(Tag::D_AGG_COMM, line, "aggregating actions may not follow commit( )");
        if (speculate_)
            raise_error(Tag::D_AGG_SPEC, line, "aggregating actions may not follow speculate( )");
        recorded_ = true;
        return;
    case SpeculationClass::NoData:
        // Destructive actions, discard() and assignments record no data.
        if (speculate_ && destructive(a))
            raise_error(Tag::D_ACT_SPEC, line, "destructive actions may not follow speculate( )");
        return;
    case SpeculationClass::Exit:
        if (speculate_)
            raise_error(Tag::D_EXIT_SPEC, line, "exit( ) may not follow speculate( )");
        break;
    case SpeculationClass::Data:
        break;
    }
    if (commit_)
        raise_error(Tag::D_DREC_COMM, line, "data-recording actions may not follow commit( )");
    if (!speculate_)
        recorded_ = true;
}

} // namespace dtrace::compiler
