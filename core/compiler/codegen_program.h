// codegen_program.h: from analysed clauses to program.h's clauses, actions
// and DIF objects.
//
// Each predicate, recorded value, printf argument, aggregation key and
// aggregated value becomes its own DIF object, whose rtype tells the engine
// what to record (integers by the size and signedness of their D type,
// strings as strings). Expression statements record nothing: their rtype is
// kVoidRtype.
#pragma once

#include "compiler/program.h"
#include "compiler/sema_tree.h"

namespace dtrace::compiler {

// The rtype of a DIF object evaluated for its side effects only.
inline constexpr dif::TypeDesc kVoidRtype{dif::TypeDesc::Kind::Integer, 0, false};

Clause generate_clause(const SemaClause &c, const TypeTable &types);
AggregationDecl aggregation_decl(const Aggregation &a, uint32_t strsize);
// Keys that record a stack or an address (stack(), sym()...) are recorded as
// their key DIF objects say, not as their D type: the declarations of the
// aggregations take those record types (codegen_record.cpp).
void adopt_recorded_keys(Program &program);

} // namespace dtrace::compiler
