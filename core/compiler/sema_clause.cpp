// sema_clause.cpp: clauses, statements and the actions trace(), printf(),
// printa() and exit().
//
// DTrace cooks a clause's action list before its predicate (assignments in
// actions usually create what the predicate tests) and, if the action list
// refers to something undefined, tries again with the predicate first. Errors
// found while cooking carry the region "action list" or "predicate"; the
// checks DTrace makes afterwards, while building each action (trace of a
// void value, printf's format argument, aggregation parameters), carry none.
#include "compiler/sema.h"

#include "compiler/speculation_rules.h"

namespace dtrace::compiler {

namespace {

bool is_agg_assignment(const Expr &e) {
    return e.kind == ExprKind::Binary && e.op == Op::Assign && e.args[0]->kind == ExprKind::AggregationRef;
}

ArgTypeInfo arg_type_info(const Type *t) {
    using K = ArgTypeInfo::Kind;
    ArgTypeInfo info;
    info.type_name = TypeTable::name_of(t);
    if (auto recorded = recorded_kind(t))
        return ArgTypeInfo{*recorded, uint32_t(t->size), false, info.type_name};
    const Type *r = resolve(t);
    info.size = uint32_t(r->size);
    switch (r->kind) {
    case TypeKind::Integer:
    case TypeKind::Enum:
        info.kind = K::Integer;
        info.size = r->kind == TypeKind::Enum ? 4 : uint32_t(r->size);
        info.is_signed = is_signed(r);
        break;
    case TypeKind::Pointer:
        info.kind = K::Pointer;
        break;
    case TypeKind::String:
        info.kind = K::String;
        break;
    case TypeKind::Float:
        info.kind = K::Float;
        break;
    case TypeKind::Array:
        info.kind = is_strcompat(r) ? K::CharArray : K::Struct;
        break;
    default:
        info.kind = K::Struct;
        break;
    }
    return info;
}

// The action kind of speculate(), commit(), discard() and the program
// control actions, which share one shape (cook_action_call).
ActionKind control_action_kind(ActionFn fn) {
    switch (fn) {
    case ActionFn::Speculate:
        return ActionKind::Speculate;
    case ActionFn::Commit:
        return ActionKind::Commit;
    case ActionFn::Discard:
        return ActionKind::Discard;
    case ActionFn::Freopen:
        return ActionKind::Freopen;
    case ActionFn::Ftruncate:
        return ActionKind::Ftruncate;
    case ActionFn::System:
        return ActionKind::System;
    case ActionFn::Raise:
        return ActionKind::Raise;
    case ActionFn::Stop:
        return ActionKind::Stop;
    default:
        return ActionKind::Chill;
    }
}

// A diagnostic from a hook (format checking), placed on the action's line.
[[noreturn]] void raise_hook_error(Diagnostic d, int line) {
    if (d.line == 0)
        d.line = line;
    throw CompileError{std::move(d)};
}

} // namespace

Sema::Sema(TypeTable &types, Symbols &symbols, const CompileOptions &opts)
    : types_(types), symbols_(symbols), opts_(opts) {
    // DTrace defines NULL in every program, libraries or not: inline long NULL = 0.
    constants_[kNullName] = {0, types_.named("long")};
}

void Sema::enter_clause(const std::vector<ProbeSpecifier> &probes, int line, SemaClause &out) {
    for (const auto &p : probes)
        out.probes.push_back(p.text);
    out.line = line;
    probes_ = &out.probes;
    clause_line_ = probes.empty() ? line : probes.front().line;
    if (!probes.empty()) {
        const ProbeSpecifier &p = probes.front();
        probe_desc_ = p.by_id ? p.text : p.provider + ":" + p.module + ":" + p.function + ":" + p.name;
    }
    probe_args_.reset();
    probe_args_fetched_ = false;
}

SemaClause Sema::clause(const ProbeClause &c) {
    SemaClause out;
    enter_clause(c.probes, c.line, out);

    auto cook_actions = [&] { in_region(kRegionActions, [&] { cook_statements(c.statements, out.actions); }); };
    auto cook_pred = [&] {
        if (c.predicate)
            in_region(kRegionPredicate, [&] { out.predicate = cook_predicate(*c.predicate); });
    };
    Symbols::Snapshot before = symbols_.save();
    try {
        cook_actions();
    } catch (CompileError &err) {
        if (!c.predicate || (err.diag.tag != Tag::D_IDENT_UNDEF && err.diag.tag != Tag::D_VAR_UNDEF))
            throw;
        symbols_.restore(before);
        out.actions.clear();
        cook_pred();
        cook_actions();
        finish_actions(out.actions);
        return out;
    }
    cook_pred();
    finish_actions(out.actions);
    return out;
}

NodePtr Sema::cook_predicate(const Expr &pred) {
    NodePtr n = cook(pred, kRef);
    if (!is_scalar(n->type))
        raise_error(Tag::D_PRED_SCALAR, pred.line, "predicate result must be of scalar type");
    return n;
}

void Sema::cook_statements(const std::vector<StmtPtr> &stmts, std::vector<SemaAction> &out) {
    for (const auto &s : stmts)
        cook_statement(*s, out);
}

void Sema::cook_statement(const Stmt &s, std::vector<SemaAction> &out) {
    switch (s.kind) {
    case Stmt::Kind::Empty:
        return;
    case Stmt::Kind::Block:
        cook_statements(s.body, out);
        return;
    case Stmt::Kind::If: // split off by clause_split.h before analysis
        raise_error(Tag::D_UNKNOWN, s.line, "internal error -- unsplit if statement");
    case Stmt::Kind::Expr:
        break;
    }
    const Expr &e = *s.expr;
    if (e.kind == ExprKind::Call) {
        const BuiltinIdent *b = find_builtin(e.text);
        if (b && b->kind == IdentKind::ActFunc) {
            out.push_back(cook_action_call(e, lookup_function(e)));
            return;
        }
        if (!b && opts_.plugin_action && !symbols_.find(dif::Scope::Global, e.text)) {
            if (std::optional<PluginActionInfo> action = opts_.plugin_action(e.text)) {
                out.push_back(cook_plugin_action(e, *action));
                return;
            }
        }
    }
    if (is_agg_assignment(e)) {
        out.push_back(cook_aggregation(e));
        return;
    }
    SemaAction a;
    a.line = e.line;
    if (e.kind == ExprKind::AggregationRef) {
        a.kind = ActionKind::Aggregate;
        a.agg = cook_aggref(e)->agg;
    } else {
        a.kind = ActionKind::Expression;
        a.value = cook(e, kRef);
    }
    out.push_back(std::move(a));
}

SemaAction Sema::cook_action_call(const Expr &call, const BuiltinIdent &b) {
    if (records_names(b))
        return cook_recording_action(call);
    SemaAction a;
    a.line = call.line;
    a.fn = &b;
    a.call_args = cook_call_args(call, b);
    switch (ActionFn(b.id)) {
    case ActionFn::Trace:
        a.kind = ActionKind::Trace;
        break;
    case ActionFn::Tracemem:
        a.kind = ActionKind::Tracemem;
        break;
    case ActionFn::Print:
        a.kind = ActionKind::Print;
        break;
    case ActionFn::Exit:
        a.kind = ActionKind::Exit;
        break;
    case ActionFn::Printf:
        a.kind = ActionKind::Printf;
        break;
    case ActionFn::Printa:
        a.kind = ActionKind::Printa;
        break;
    case ActionFn::Speculate:
    case ActionFn::Commit:
    case ActionFn::Discard:
    case ActionFn::Freopen:
    case ActionFn::Ftruncate:
    case ActionFn::System:
    case ActionFn::Raise:
    case ActionFn::Stop:
    case ActionFn::Chill:
        a.kind = control_action_kind(ActionFn(b.id));
        break;
    case ActionFn::Clear:
    case ActionFn::Trunc:
    case ActionFn::Normalize:
    case ActionFn::Denormalize:
    case ActionFn::Setopt:
        a.kind = ActionKind::Library;
        break;
    default: // ActionFn::Other
        raise_unsupported(call.line, call.text + "( )");
    }
    return a;
}

// Each action is finished, then checked against the ones before it, as
// DTrace appends the statements of a clause one by one.
void Sema::finish_actions(std::vector<SemaAction> &actions) {
    SpeculationRules rules;
    for (auto &a : actions) {
        finish_action(a);
        rules.add(a);
    }
}

SemaAction Sema::cook_plugin_action(const Expr &call, const PluginActionInfo &action) {
    auto it = signatures_.find(call.text);
    if (it == signatures_.end()) {
        std::optional<Signature> sig = parse_prototype(action.prototype, types_);
        if (!sig)
            raise_error(Tag::D_UNKNOWN, call.line,
                        "failed to resolve type of " + call.text + " (" + action.prototype + ")");
        it = signatures_.emplace(call.text, std::move(*sig)).first;
    }
    SemaAction a;
    a.kind = ActionKind::Plugin;
    a.line = call.line;
    a.plugin_action = action.id;
    a.call_args = cook_list(call.args);
    check_prototype(it->second, call.text, a.call_args, "", "( )", call.line);
    for (size_t i = 0; i < a.call_args.size(); i++) {
        const Node &arg = *a.call_args[i];
        if (is_void(arg.type) || is_dynamic(arg.type))
            raise_error(Tag::D_PROTO_ARG, arg.line ? arg.line : call.line,
                        call.text + "( ) argument #" + std::to_string(i + 1) +
                            " is incompatible with prototype:\n\tprototype: a recordable value\n\t argument: " +
                            node_type_name(arg));
    }
    // The firing's pid and tid end the record (kPluginActionContextValues):
    // the consumer hands them to the plugin with the call.
    for (const char *context : {"pid", "tid"}) {
        Expr ident{.kind = ExprKind::Identifier, .line = call.line, .text = context};
        a.call_args.push_back(cook(ident, 0));
    }
    return a;
}

void Sema::finish_action(SemaAction &a) {
    switch (a.kind) {
    case ActionKind::Trace: {
        NodePtr v = std::move(a.call_args[0]);
        if (is_void(v->type))
            raise_error(Tag::D_TRACE_VOID, v->line, "trace( ) may not be applied to a void expression");
        if (v->kind == NodeKind::AggRef)
            raise_error(Tag::D_TRACE_AGG, v->line, "trace( ) may not be applied to an aggregation");
        if (is_dynamic(v->type))
            raise_error(Tag::D_TRACE_DYN, v->line, "trace( ) may not be applied to a dynamic expression");
        a.value = std::move(v);
        break;
    }
    case ActionKind::Tracemem:
        finish_tracemem(a);
        break;
    case ActionKind::Print:
        finish_print(a);
        break;
    case ActionKind::Exit:
    case ActionKind::Speculate:
    case ActionKind::Commit:
    case ActionKind::Discard:
    case ActionKind::Raise:
    case ActionKind::Chill:
        a.value = std::move(a.call_args[0]);
        break;
    case ActionKind::Printf:
    case ActionKind::System:
        finish_printf(a);
        break;
    case ActionKind::Freopen:
        finish_freopen(a);
        break;
    case ActionKind::Printa:
        finish_printa(a);
        break;
    case ActionKind::Aggregate:
        finish_aggregation(a);
        break;
    case ActionKind::Library:
        finish_library_action(a);
        break;
    case ActionKind::Plugin:
        a.args = std::move(a.call_args);
        break;
    default:
        break;
    }
    a.call_args.clear();
}

void Sema::finish_printf(SemaAction &a) {
    const Node &fmt = *a.call_args[0];
    if (fmt.kind != NodeKind::String)
        raise_error(Tag::D_PRINTF_ARG_FMT, a.line,
                    std::string(a.fn->name) +
                        "( ) argument #1 is incompatible with prototype:\n\tprototype: string constant\n\t argument: " +
                        node_type_name(fmt));
    a.format = fmt.str;
    a.has_format = true;
    std::vector<ArgTypeInfo> infos;
    for (size_t i = 1; i < a.call_args.size(); i++) {
        infos.push_back(arg_type_info(a.call_args[i]->type));
        a.args.push_back(std::move(a.call_args[i]));
    }
    // freopen("") restores the original output: nothing to format.
    const bool restores = a.kind == ActionKind::Freopen && a.format.empty();
    if (opts_.check_printf && !restores)
        if (auto d = opts_.check_printf(a.format, infos, a.line))
            raise_hook_error(std::move(*d), a.line);
}

void Sema::finish_printa(SemaAction &a) {
    size_t first = 0;
    if (!a.call_args.empty() && a.call_args[0]->kind == NodeKind::String) {
        a.format = a.call_args[0]->str;
        a.has_format = true;
        first = 1;
    }
    size_t argc = a.call_args.size(), argr = first + 1;
    if (argc < argr)
        raise_error(Tag::D_PRINTA_PROTO, a.line,
                    "printa( ) prototype mismatch: " + std::to_string(argc) + " args passed, " + std::to_string(argr) +
                        " expected");
    // As DTrace: each aggregation in turn is checked, then matched against
    // the first one's keys; the format is checked against the first.
    auto key_infos = [](const Aggregation &agg) {
        std::vector<ArgTypeInfo> keys;
        for (const Type *k : agg.keys)
            keys.push_back(arg_type_info(k));
        return keys;
    };
    for (size_t i = first; i < argc; i++) {
        const Node &n = *a.call_args[i];
        if (n.kind != NodeKind::AggRef || !n.kids.empty())
            raise_error(
                Tag::D_PRINTA_AGGARG, a.line,
                "printa( ) argument #" + std::to_string(i + 1) +
                    " is incompatible with prototype:\n\tprototype: aggregation\n\t argument: " + node_type_name(n));
        if (!n.agg->modified)
            raise_error(Tag::D_PRINTA_AGGBAD, a.line, "undefined aggregation: @" + n.agg->name);
        a.printa_aggs.push_back(n.agg);
        const Aggregation &lead = *a.printa_aggs.front();
        if (i > first && opts_.check_printa_keys)
            if (auto d = opts_.check_printa_keys(lead.name, key_infos(lead), n.agg->name, key_infos(*n.agg), a.line))
                raise_hook_error(std::move(*d), a.line);
        if (i == first && a.has_format && opts_.check_printa)
            if (auto d = opts_.check_printa(a.format, key_infos(lead), lead.func == AggFunc::Count, a.line))
                raise_hook_error(std::move(*d), a.line);
    }
}

// freopen(): printf-like, but "." (DTrace's own marker for "restore the
// original output", which "" stands for) may not be given.
void Sema::finish_freopen(SemaAction &a) {
    const Node &path = *a.call_args[0];
    if (path.kind == NodeKind::String && path.str == ".")
        raise_error(Tag::D_FREOPEN_INVALID, a.line, "freopen( ) argument #1 cannot be \".\"");
    finish_printf(a);
}

} // namespace dtrace::compiler
