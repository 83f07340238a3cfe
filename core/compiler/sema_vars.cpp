// sema_vars.cpp: names: global identifiers, self-> and this-> variables,
// associative arrays, args[] and uregs[], and aggregations named as values.
//
// As in DTrace, a variable springs into existence where it is first
// assigned (or incremented, or indexed), has no type until that assignment,
// and reading it before then is D_VAR_UNDEF; a name nobody created is
// D_IDENT_UNDEF. Builtins share the global namespace with user variables.
#include "compiler/sema.h"

#include "dif/isa.h"

#include <algorithm>

namespace dtrace::compiler {

namespace {

constexpr const char *kUndefinedVariable = "Unknown variable name";

const char *scope_prefix(dif::Scope s) {
    switch (s) {
    case dif::Scope::ThreadLocal:
        return "self->";
    case dif::Scope::ClauseLocal:
        return "this->";
    default:
        return "";
    }
}

bool is_scope_member(const Expr &e) {
    return e.kind == ExprKind::Member && e.op == Op::Arrow && e.args[0]->kind == ExprKind::Identifier &&
           !e.args[0]->scoped && (e.args[0]->text == "self" || e.args[0]->text == "this");
}

bool is_array_type(const Type *t) {
    return resolve(t)->kind == TypeKind::Array;
}

} // namespace

const Node *storage_variable(const Node &lvalue) {
    const Node *n = &lvalue;
    for (;;) {
        if (n->kind == NodeKind::Var || n->kind == NodeKind::ArrayElem)
            return n;
        const TypeKind held = n->kids.empty() ? TypeKind::Void : resolve(n->kids[0]->type)->kind;
        if (n->kind == NodeKind::Member && (held == TypeKind::Struct || held == TypeKind::Union)) {
            n = n->kids[0].get(); // v.m
        } else if (n->kind == NodeKind::Deref && n->kids[0]->kind == NodeKind::Binary && n->kids[0]->op == Op::Add &&
                   is_array_type(n->kids[0]->kids[0]->type)) {
            n = n->kids[0]->kids[0].get(); // a[i]
        } else {
            return nullptr;
        }
    }
}

std::vector<NodePtr> Sema::cook_list(const std::vector<ExprPtr> &args, size_t from) {
    std::vector<NodePtr> out;
    for (size_t i = from; i < args.size(); i++)
        out.push_back(cook(*args[i], kRef));
    return out;
}

void Sema::use_var(UserVar *v, int line, unsigned flags) {
    if ((flags & kRef) && v->unref())
        raise_error(Tag::D_VAR_UNDEF, line,
                    std::string(scope_prefix(v->scope)) + v->name + " has not yet been declared or assigned");
    v->referenced |= (flags & kRef) != 0;
    v->modified |= (flags & kMod) != 0;
}

NodePtr Sema::var_node(UserVar *v, int line, unsigned flags) {
    use_var(v, line, flags);
    auto n = std::make_unique<Node>();
    n->kind = v->is_array ? NodeKind::ArrayElem : NodeKind::Var;
    n->var = v;
    n->type = v->type ? v->type : types_.dynamic_type();
    n->line = line;
    return n;
}

bool Sema::defines_global(const std::string &name) const {
    return find_builtin(name) || constants_.count(name) || inlines_.count(name) ||
           symbols_.find(dif::Scope::Global, name);
}

NodePtr Sema::resolve_global(const Expr &e, unsigned flags, bool create) {
    if (e.scoped)
        return kernel_symbol(e);
    if (NodePtr input = xlate_param(e.text, e.line))
        return input;
    if (const BuiltinIdent *b = find_builtin(e.text)) {
        if (b->kind != IdentKind::Scalar)
            raise_error(Tag::D_IDENT_BADREF, e.line,
                        std::string(ident_kind_name(b->kind)) + " '" + e.text + "' may not be referenced as scalar");
        auto n = std::make_unique<Node>();
        n->kind = NodeKind::Builtin;
        n->id = b->id;
        n->type = types_.lookup(b->proto);
        // curthread is the kernel's thread, a struct task_struct * as DTrace
        // on Linux types it, where a plugin describes that struct (BTF).
        if (b->id == uint32_t(dif::VarId::Curthread)) {
            if (const Type *task = types_.find_tagged(TypeKind::Struct, "task_struct"); task && types_.complete(task))
                n->type = types_.pointer_to(task);
        }
        n->line = e.line;
        return n;
    }
    if (create)
        yield_predefined(e.text); // the program's own variable of that name
    if (auto it = constants_.find(e.text); it != constants_.end())
        return make_const(uint64_t(it->second.first), it->second.second, e.line);
    if (auto it = inlines_.find(e.text); it != inlines_.end()) {
        if (!it->second.params.empty())
            raise_error(Tag::D_IDENT_BADREF, e.line,
                        "associative array '" + e.text + "' may not be referenced as scalar");
        // An inline is its expression, converted to the declared type; a
        // translated one stays translated (its members translate where used).
        NodePtr value = cook(*it->second.expr, kRef);
        if (value->kind == NodeKind::Xlated)
            return value;
        auto n = std::make_unique<Node>();
        n->kind = NodeKind::Convert;
        n->type = it->second.type;
        n->line = e.line;
        n->kids.push_back(std::move(value));
        return n;
    }
    if (UserVar *v = symbols_.find(dif::Scope::Global, e.text)) {
        if (v->is_array)
            raise_error(Tag::D_IDENT_BADREF, e.line,
                        "associative array '" + e.text + "' may not be referenced as scalar");
        return var_node(v, e.line, flags);
    }
    if (create)
        return var_node(symbols_.create(dif::Scope::Global, e.text, false, e.line), e.line, flags);
    raise_error(Tag::D_IDENT_UNDEF, e.line, "failed to resolve " + e.text + ": " + kUndefinedVariable);
}

// An inline array's expression with its parameters bound to `args`, each
// converted to its parameter's type and evaluated once (translations, as a
// translator's input is); without arguments, the bare expression.
NodePtr Sema::cook_inline(const Inline &in, int line, std::vector<NodePtr> args) {
    std::vector<uint32_t> ids;
    struct Pop {
        std::vector<XlateParam> &params;
        size_t count = 0;
        ~Pop() { params.resize(params.size() - count); }
    } pop{xlate_params_};
    for (const XlateParam &p : in.params) {
        ids.push_back(next_xlate_id_++);
        xlate_params_.push_back({p.name, p.type, ids.back()});
        pop.count++;
    }
    NodePtr value = cook(*in.expr, kRef);
    if (args.empty())
        return value;
    auto converted = [line](NodePtr kid, const Type *to) {
        auto n = std::make_unique<Node>();
        n->kind = NodeKind::Convert;
        n->type = to;
        n->line = line;
        n->kids.push_back(std::move(kid));
        return n;
    };
    // A translated element (fds[fd].fi_name) stays translated: the
    // parameters are bound around the translator's input, which uses them.
    const bool translated = value->kind == NodeKind::Xlated;
    NodePtr n = translated ? std::move(value->kids[0]) : converted(std::move(value), in.type);
    for (size_t i = in.params.size(); i-- > 0;) {
        auto bound = std::make_unique<Node>();
        bound->kind = NodeKind::Translate;
        bound->type = n->type;
        bound->line = line;
        bound->id = ids[i];
        bound->kids.push_back(converted(std::move(args[i]), in.params[i].type));
        bound->kids.push_back(std::move(n));
        n = std::move(bound);
    }
    if (!translated)
        return n;
    value->kids[0] = std::move(n);
    return value;
}

NodePtr Sema::inline_elem(const Expr &e, const Inline &in) {
    std::vector<NodePtr> args = cook_list(e.args, 1);
    Signature sig;
    for (const XlateParam &p : in.params)
        sig.params.push_back(p.type);
    check_prototype(sig, e.args[0]->text, args, "", "[ ]", e.line);
    return cook_inline(in, e.line, std::move(args));
}

NodePtr Sema::cook_ident(const Expr &e, unsigned flags) {
    return resolve_global(e, flags, false);
}

UserVar *Sema::scoped_var(const Expr &member, bool create) {
    dif::Scope scope = member.args[0]->text == "self" ? dif::Scope::ThreadLocal : dif::Scope::ClauseLocal;
    if (UserVar *v = symbols_.find(scope, member.text))
        return v;
    return create ? symbols_.create(scope, member.text, false, member.line) : nullptr;
}

NodePtr Sema::cook_member(const Expr &e, unsigned flags) {
    if (is_scope_member(e)) {
        UserVar *v = scoped_var(e, true);
        if (v->is_array)
            raise_error(Tag::D_IDENT_BADREF, e.line,
                        "associative array '" + e.text + "' may not be referenced as scalar");
        return var_node(v, e.line, flags);
    }
    NodePtr base = cook(*e.args[0], kRef);
    if (base->kind == NodeKind::Xlated)
        return cook_translated_member(e, std::move(base));
    const Type *t = resolve(base->type);
    if (e.op == Op::Arrow) {
        if (t->kind != TypeKind::Pointer)
            raise_error(Tag::D_OP_PTR, e.line, "operator -> must be applied to a pointer");
        t = resolve(t->ref);
        if (t->kind != TypeKind::Struct && t->kind != TypeKind::Union)
            raise_error(Tag::D_OP_SOU, e.line,
                        "operator -> cannot be applied to pointer to type \"" + type_name(t) +
                            "\"; must be applied to a struct or union pointer");
    } else if (t->kind != TypeKind::Struct && t->kind != TypeKind::Union) {
        raise_error(Tag::D_OP_SOU, e.line,
                    "operator . cannot be applied to type \"" + type_name(t) +
                        "\"; must be applied to a struct or union");
    }
    if (!types_.complete(t))
        raise_error(Tag::D_OP_INCOMPLETE, e.line,
                    "operator " + op_name(e.op) + " cannot be applied to a forward declaration: no " + type_name(t) +
                        " definition is available");
    auto m = std::find_if(t->members.begin(), t->members.end(), [&](const Member &m) { return m.name == e.text; });
    if (m == t->members.end())
        raise_error(Tag::D_TYPE_MEMBER, e.line, e.text + " is not a member of " + type_name(t));
    // A struct value is an address: a member of one, *p, a struct variable,
    // a translator's struct input, or a struct member of a translated
    // struct (xlate<T>(e).m.sub: the address the member's expression gives).
    if (e.op == Op::Dot && base->kind != NodeKind::Member && base->kind != NodeKind::Deref &&
        base->kind != NodeKind::Var && base->kind != NodeKind::ArrayElem && base->kind != NodeKind::XlateInput &&
        base->kind != NodeKind::Translate)
        raise_unsupported(e.line, "operator . on a struct-valued " + node_type_name(*base));
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::Member;
    n->type = m->type;
    n->value = m->offset_bits / kBitsPerByte;
    n->bit_width = uint8_t(m->bit_width);
    n->bit_offset = uint8_t(m->offset_bits % kBitsPerByte);
    n->line = e.line;
    n->kids.push_back(std::move(base));
    return n;
}

void Sema::check_signature(std::vector<const Type *> &keys, bool &has_signature, const std::vector<NodePtr> &args,
                           const std::string &prefix, const std::string &name, const char *kind_name, int line) {
    if (has_signature) {
        Signature sig;
        sig.params = keys;
        check_prototype(sig, name, args, prefix, "[ ]", line);
        return;
    }
    keys.clear();
    for (size_t i = 0; i < args.size(); i++) {
        if (is_dynamic(args[i]->type) || is_void(args[i]->type))
            raise_error(Tag::D_KEY_TYPE, args[i]->line,
                        node_type_name(*args[i]) + " expression may not be used as " + kind_name + " index: key #" +
                            std::to_string(i + 1));
        keys.push_back(args[i]->type);
    }
    has_signature = true;
}

NodePtr Sema::index_as_pointer(const Expr &e, unsigned flags) {
    // E1[E2] is *(E1 + E2) when E1 is not an associative array.
    NodePtr base = cook(*e.args[0], kRef);
    if (e.args.size() != 2) {
        std::string what = base->kind == NodeKind::Var || base->kind == NodeKind::Builtin
                               ? "scalar " + (base->var ? base->var->name : e.args[0]->text)
                               : "operator [";
        raise_error(Tag::D_ARR_BADREF, e.line, "cannot access " + what + " as an associative array");
    }
    NodePtr index = cook(*e.args[1], kRef);
    // An array's length is known: a constant index must lie within it, and
    // another index into an array a D variable holds is checked at run time
    // (its storage holds nothing past the array).
    uint64_t bound = 0;
    if (const Type *array = resolve(base->type); array->kind == TypeKind::Array && array->count != 0) {
        if (index->kind == NodeKind::Const && index->value >= array->count)
            raise_error(Tag::D_ARR_BOUNDS, e.line,
                        "index outside array bounds: " + std::to_string(index->value) + ", max is " +
                            std::to_string(array->count));
        if (index->kind != NodeKind::Const && storage_variable(*base))
            bound = array->count;
    }
    NodePtr sum = cook_arith(Op::Add, e.line, std::move(base), std::move(index));
    sum->bound = bound;
    return cook_deref(e.line, std::move(sum));
}

NodePtr Sema::cook_index(const Expr &e, unsigned flags) {
    const Expr &base = *e.args[0];
    UserVar *v = nullptr;
    if (base.kind == ExprKind::AggregationRef) {
        if (!base.args.empty())
            raise_error(Tag::D_AGG_MDIM, e.line,
                        "improper attempt to reference @" + base.text + " as a multi-dimensional array");
        raise_unsupported(e.line, "indexing an aggregation outside of an aggregating statement");
    } else if (base.kind == ExprKind::Identifier && !base.scoped) {
        if (const BuiltinIdent *b = find_builtin(base.text)) {
            if (b->kind == IdentKind::Array)
                return args_elem(e, *b);
            if (b->kind == IdentKind::Scalar)
                return index_as_pointer(e, flags);
            raise_error(Tag::D_IDENT_BADREF, e.line,
                        std::string(ident_kind_name(b->kind)) + " '" + base.text +
                            "' may not be referenced as associative array");
        }
        if (auto in = inlines_.find(base.text); in != inlines_.end() && !in->second.params.empty())
            return inline_elem(e, in->second);
        v = symbols_.find(dif::Scope::Global, base.text);
        if (!v && opts_.is_counter_array && opts_.is_counter_array(base.text))
            return counter_elem(e);
        if (v && !v->is_array) {
            if (v->unref())
                raise_error(Tag::D_IDENT_BADREF, e.line,
                            "scalar '" + base.text + "' may not be referenced as associative array");
            return index_as_pointer(e, flags);
        }
        if (!v)
            v = symbols_.create(dif::Scope::Global, base.text, true, e.line);
    } else if (is_scope_member(base)) {
        v = scoped_var(base, true);
        if (!v->is_array) {
            if (!v->unref())
                return index_as_pointer(e, flags);
            if (v->scope == dif::Scope::ClauseLocal)
                raise_error(Tag::D_ARR_LOCAL, e.line,
                            "local variables may not be used as associative arrays: " + v->name);
            v->is_array = true;
        }
    } else {
        return index_as_pointer(e, flags);
    }
    std::vector<NodePtr> keys = cook_list(e.args, 1);
    check_signature(v->keys, v->has_signature, keys, "", v->name, "associative array", e.line);
    NodePtr n = var_node(v, e.line, flags);
    n->kids = std::move(keys);
    return n;
}

NodePtr Sema::args_elem(const Expr &e, const BuiltinIdent &b) {
    size_t argc = e.args.size() - 1;
    std::string name(b.name);
    if (argc != 1)
        raise_error(Tag::D_PROTO_LEN, e.line,
                    name + "[ ] prototype mismatch: " + args_passed(argc) + "passed, 1 expected");
    NodePtr index = cook(*e.args[1], kRef);
    if (index->kind != NodeKind::Const)
        raise_error(
            Tag::D_PROTO_ARG, e.line,
            name + "[ ] argument #1 is incompatible with prototype:\n\tprototype: integer constant\n\t argument: " +
                node_type_name(*index));
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::BuiltinArray;
    n->id = b.id;
    n->line = e.line;
    int64_t i = int64_t(index->value);
    if (b.id == uint32_t(dif::VarId::Uregs)) {
        if (is_signed(index->type) && i < 0)
            raise_error(Tag::D_REGS_IDX, e.line, "index " + std::to_string(i) + " is out of range for array uregs");
        n->type = types_.named("uint64_t");
    } else {
        if (!probes_)
            raise_error(Tag::D_ARGS_NONE, e.line, name + "[ ] may not be referenced outside of a probe clause");
        n->type = types_.named("int64_t");
        if (!probe_args_fetched_ && opts_.probe_arg_types && probes_) {
            probe_args_ = opts_.probe_arg_types(*probes_, clause_line_);
            probe_args_fetched_ = true;
        }
        if (probe_args_) {
            if (probe_args_->error)
                throw CompileError{*probe_args_->error};
            const auto &names = probe_args_->types;
            if (uint64_t(i) >= names.size())
                raise_error(Tag::D_ARGS_IDX, e.line,
                            "index " + std::to_string(i) + " is out of range for " + probe_desc_ + " args[ ]");
            size_t at = size_t(i);
            bool is_translated = at < probe_args_->native_types.size() && !probe_args_->native_types[at].empty();
            n->type = types_.lookup(names[at]);
            if (!n->type)
                raise_error(Tag::D_ARGS_TYPE, e.line,
                            std::string("failed to resolve ") + (is_translated ? "translated" : "native") +
                                " type for args[" + std::to_string(i) + "]");
            if (is_string(n->type)) {
                n->kids.push_back(std::move(index));
                return string_arg(std::move(n), e.line);
            }
            if (is_translated) {
                const Type *native = types_.lookup(probe_args_->native_types[at]);
                if (!native)
                    raise_error(Tag::D_ARGS_TYPE, e.line,
                                "failed to resolve native type for args[" + std::to_string(i) + "]");
                const Type *xlated = n->type;
                n->kids.push_back(std::move(index));
                return translated_arg(std::move(n), native, xlated, i, e.line);
            }
        }
    }
    n->kids.push_back(std::move(index));
    return n;
}

// A string argument (args[i] of type string, native or translated) is the
// address of the string in the memory of whatever fired the probe, which
// only the probe's memory reader can read: args[i] is copyinstr(argN).
NodePtr Sema::string_arg(NodePtr arg, int line) {
    const BuiltinIdent *copyinstr = find_builtin("copyinstr");
    auto call = std::make_unique<Node>();
    call->kind = NodeKind::Call;
    call->id = copyinstr->id;
    call->str = copyinstr->name;
    call->line = line;
    call->type = types_.string_type();
    arg->type = types_.named("uintptr_t");
    call->params.push_back(arg->type);
    call->kids.push_back(std::move(arg));
    return call;
}

NodePtr Sema::cook_aggref(const Expr &e) {
    Aggregation *a = symbols_.find_agg(e.text);
    if (!a)
        raise_error(Tag::D_IDENT_UNDEF, e.line, "failed to resolve @" + e.text + ": " + kUndefinedVariable);
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::AggRef;
    n->agg = a;
    n->type = types_.dynamic_type();
    n->line = e.line;
    n->kids = cook_list(e.args);
    return n;
}

// A backquoted name: the object at a kernel symbol's address, of the type
// the plugin that knows the symbol gives it (int when it gives none, as
// DTrace types a symbol without CTF). User symbols (mod``sym) need a
// process's symbol tables, which nothing provides yet.
NodePtr Sema::kernel_symbol(const Expr &e) {
    const bool user = !e.module.empty() && e.module.back() == '`';
    std::optional<ExternalSymbol> found;
    if (!user && opts_.resolve_symbol)
        found = opts_.resolve_symbol(e.module, e.text);
    if (!found)
        raise_error(Tag::D_IDENT_UNDEF, e.line,
                    "failed to resolve " + e.module + "`" + e.text + ": " +
                        (e.module.empty() ? "Unknown symbol name" : "Unknown module name"));
    const Type *type = found->type.empty() ? types_.int_type() : types_.lookup(found->type);
    if (type == nullptr)
        raise_error(Tag::D_TYPE_ERR, e.line, "failed to resolve type " + found->type + " of " + e.text);
    return cook_deref(e.line, make_const(found->address, types_.pointer_to(type), e.line));
}

} // namespace dtrace::compiler
