// codegen_program.cpp: clauses and actions (see codegen_program.h).
#include "compiler/codegen_program.h"

#include "compiler/action_traits.h"
#include "compiler/codegen_expr.h"

namespace dtrace::compiler {

namespace {

// Generates `n` as a DIF object returning its value, converted to `as` when given.
dif::Difo difo(const Node &n, int line, uint32_t strsize, const Type *as = nullptr) {
    DifoBuilder b(line, strsize);
    ExprGen g(b);
    uint8_t r = g.gen(n);
    if (as)
        g.convert(r, n.type, as);
    dif::Difo d = b.finish(r, n.record ? *n.record : type_desc(as ? as : n.type, strsize));
    b.free(r);
    return d;
}

} // namespace

Clause generate_clause(const SemaClause &c, const TypeTable &types) {
    uint32_t strsize = types.strsize();
    Clause out;
    out.probes = c.probes;
    out.line = c.line;
    if (c.predicate) {
        out.predicate = difo(*c.predicate, c.line, strsize);
        out.filter = hoistable_filter(*c.predicate);
    }
    for (const auto &a : c.actions) {
        Action act;
        act.kind = a.kind;
        act.line = a.line;
        switch (action_traits(a.kind).operands) {
        case ActionOperands::Effect:
            act.value = difo(*a.value, c.line, strsize);
            act.value->rtype = kVoidRtype;
            break;
        case ActionOperands::Value:
            act.value = difo(*a.value, c.line, strsize);
            break;
        case ActionOperands::TypedValue:
            act.value = difo(*a.value, c.line, strsize);
            act.type = a.value->type;
            break;
        case ActionOperands::Arguments:
            for (const auto &arg : a.args)
                act.args.push_back(difo(*arg, c.line, strsize));
            break;
        case ActionOperands::IntegerValue:
            act.value = difo(*a.value, c.line, strsize, types.int_type());
            break;
        case ActionOperands::Formatted:
            act.format = a.format;
            act.has_format = true;
            for (const auto &arg : a.args)
                act.args.push_back(difo(*arg, c.line, strsize));
            break;
        case ActionOperands::Aggregations:
            act.format = a.format;
            act.has_format = a.has_format;
            for (const Aggregation *agg : a.printa_aggs)
                act.printa_aggs.push_back(agg->id);
            break;
        case ActionOperands::Aggregate:
            act.aggregation = a.agg->id;
            for (size_t i = 0; i < a.args.size(); i++)
                act.args.push_back(difo(*a.args[i], c.line, strsize, a.agg->keys[i]));
            for (const auto &arg : a.agg_args)
                act.agg_args.push_back(difo(*arg, c.line, strsize));
            break;
        case ActionOperands::Library:
            act.library = a.library;
            act.aggregation = a.agg ? a.agg->id : 0;
            for (const auto &arg : a.args)
                act.args.push_back(difo(*arg, c.line, strsize));
            break;
        case ActionOperands::Plugin:
            act.plugin_action = a.plugin_action;
            for (const auto &arg : a.args)
                act.args.push_back(difo(*arg, c.line, strsize));
            break;
        case ActionOperands::None:
            break;
        }
        out.actions.push_back(std::move(act));
    }
    if (out.actions.empty()) {
        Action def;
        def.kind = ActionKind::Default;
        def.line = c.line;
        out.actions.push_back(std::move(def));
    }
    return out;
}

AggregationDecl aggregation_decl(const Aggregation &a, uint32_t strsize) {
    AggregationDecl d;
    d.id = a.id;
    d.name = a.name;
    d.func = a.func;
    for (const Type *k : a.keys)
        d.key_types.push_back(type_desc(k, strsize));
    d.params = a.params;
    d.line = a.line;
    return d;
}

} // namespace dtrace::compiler
