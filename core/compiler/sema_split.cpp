// sema_split.cpp: the typed clauses of a clause split at its if statements
// (see clause_split.h), built as DTrace cooks its rewritten D: a test is
// cooked as the right operand of `guard && test`, so a test of the wrong
// type is reported as that operator's D_OP_SCALAR, in the action list.
//
// The condition variables are clause-local (this->%condition_N), as in
// DTrace's rewrite: clause-locals last from one clause to the next within
// one probe firing, so the parts of a split clause see the conditions the
// earlier parts set, and concurrent firings never share them.
#include "compiler/sema.h"

#include "dif/isa.h"

namespace dtrace::compiler {

namespace {

constexpr dif::Scope kConditionScope = dif::Scope::ClauseLocal;
constexpr dif::Scope kErrorFlagScope = dif::Scope::ThreadLocal;

std::string condition_name(uint32_t id) {
    return kConditionPrefix + std::to_string(id);
}

NodePtr logical_not(NodePtr child, const Type *int_type) {
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::Unary;
    n->op = Op::LogNot;
    n->type = int_type;
    n->line = child->line;
    n->kids.push_back(std::move(child));
    return n;
}

ProbeSpecifier error_probe(int line) {
    ProbeSpecifier p;
    p.text = kErrorProbe;
    p.line = line;
    p.provider = "dtrace";
    p.name = "ERROR";
    return p;
}

} // namespace

NodePtr Sema::hidden_ref(dif::Scope scope, const std::string &name, int line) {
    UserVar *v = symbols_.find(scope, name);
    if (!v)
        v = symbols_.create(scope, name, false, line);
    return var_node(v, line, kRef);
}

NodePtr Sema::hidden_assign(dif::Scope scope, const std::string &name, NodePtr value, int line) {
    UserVar *v = symbols_.find(scope, name);
    if (!v)
        v = symbols_.create(scope, name, false, line);
    if (!v->type)
        v->type = value->type;
    v->modified = true;
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::Assign;
    n->type = v->type;
    n->line = line;
    n->kids.push_back(var_node(v, line, kNoRef));
    n->kids.push_back(std::move(value));
    return n;
}

// !self->%error
NodePtr Sema::error_flag_clear(int line) {
    return logical_not(hidden_ref(kErrorFlagScope, kErrorFlagName, line), types_.int_type());
}

SemaAction Sema::expression_action(NodePtr value) {
    SemaAction a;
    a.kind = ActionKind::Expression;
    a.line = value->line;
    a.value = std::move(value);
    return a;
}

SemaClause Sema::clause_part(const ProbeClause &c, const ClausePart &part) {
    using K = ClausePart::Kind;
    SemaClause out;
    const int line = c.line;
    if (part.kind == K::SetErrorFlag)
        enter_clause({error_probe(line)}, line, out);
    else
        enter_clause(c.probes, line, out);
    const Type *int_t = types_.int_type();
    switch (part.kind) {
    case K::SetErrorFlag:
    case K::ClearErrorFlag: {
        uint64_t flag = part.kind == K::SetErrorFlag ? 1 : 0;
        out.actions.push_back(
            expression_action(hidden_assign(kErrorFlagScope, kErrorFlagName, make_const(flag, int_t, line), line)));
        break;
    }
    case K::Condition:
        out.predicate = error_flag_clear(line);
        in_region(kRegionActions, [&] {
            NodePtr guard = part.guard ? hidden_ref(kConditionScope, condition_name(part.guard), part.line)
                                       : make_const(1, int_t, part.line);
            NodePtr test =
                part.test ? cook(*part.test, kRef)
                          : logical_not(hidden_ref(kConditionScope, condition_name(part.negates), part.line), int_t);
            NodePtr value = cook_logical(Op::LogAnd, part.line, std::move(guard), std::move(test));
            out.actions.push_back(expression_action(
                hidden_assign(kConditionScope, condition_name(part.id), std::move(value), part.line)));
        });
        break;
    case K::Block:
        if (part.checks_error_flag)
            out.predicate = error_flag_clear(line);
        if (part.guard) {
            NodePtr guard = hidden_ref(kConditionScope, condition_name(part.guard), line);
            out.predicate = out.predicate ? cook_logical(Op::LogAnd, line, std::move(out.predicate), std::move(guard))
                                          : std::move(guard);
        }
        in_region(kRegionActions, [&] {
            for (const Stmt *s : part.statements)
                cook_statement(*s, out.actions);
        });
        break;
    }
    for (auto &a : out.actions)
        finish_action(a);
    return out;
}

} // namespace dtrace::compiler
