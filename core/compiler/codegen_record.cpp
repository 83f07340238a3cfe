// codegen_record.cpp: aggregation keys that record a stack or an address
// (see codegen_program.h).
#include "compiler/codegen_program.h"

namespace dtrace::compiler {

void adopt_recorded_keys(Program &program) {
    for (const Clause &clause : program.clauses) {
        for (const Action &action : clause.actions) {
            if (action.kind != ActionKind::Aggregate)
                continue;
            for (AggregationDecl &decl : program.aggregations) {
                if (decl.id != action.aggregation)
                    continue;
                for (size_t i = 0; i < action.args.size() && i < decl.key_types.size(); i++)
                    if (action.args[i].rtype.shown != dif::TypeDesc::Shown::Value)
                        decl.key_types[i] = action.args[i].rtype;
            }
        }
    }
}

} // namespace dtrace::compiler
