// speculation_rules.h: what may precede and follow speculate() and commit().
//
// DTrace checks a clause's actions as it appends each statement: commit()
// and speculate() must come before any data-recording action, at most one of
// each, no data after commit(), no aggregation, destructive action or exit()
// after speculate(). The first statement that breaks a rule is reported, on
// its line, with DTrace's tag and message.
#pragma once

#include "compiler/sema_tree.h"

namespace dtrace::compiler {

class SpeculationRules {
  public:
    // Checks `action` against the clause's earlier actions (throws CompileError).
    void add(const SemaAction &action);

  private:
    bool commit_ = false;
    bool speculate_ = false;
    bool recorded_ = false; // a data-recording action came before any speculate()
};

} // namespace dtrace::compiler
