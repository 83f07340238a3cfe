// sema_decl.cpp: declarations and type names.
//
// Type names resolve against the shared TypeTable; struct, union and enum
// definitions and typedefs add to it (members laid out as DTrace lays them out, type_layout.h).
// Variable declarations (`int x;`, `self string s;`, `int a[string, int];`)
// give variables their type before first use, with DTrace's D_DECL_* checks.
#include "compiler/sema.h"
#include "compiler/type_layout.h"

#include <algorithm>

namespace dtrace::compiler {

namespace {

// DTrace's dt_node_is_posconst: a nonzero integer constant, positive if signed.
bool is_positive_constant(const Node &n) {
    return n.kind == NodeKind::Const && n.value != 0 && (!is_signed(n.type) || int64_t(n.value) > 0);
}

// The declarator of an associative array's values: `d` without its first
// step (the [key, ...] signature).
Declarator element_declarator(const Declarator &d) {
    Declarator rest;
    rest.name = d.name;
    for (size_t i = 1; i < d.steps.size(); i++)
        rest.steps.push_back({d.steps[i].kind,
                              d.steps[i].is_const,
                              d.steps[i].is_volatile,
                              d.steps[i].is_restrict,
                              nullptr,
                              {},
                              {},
                              false});
    return rest;
}

// `int f(void)`, `void *(*g)(int)`: a declarator whose outermost step is a function.
bool is_function_declarator(const Declarator &d) {
    return !d.steps.empty() && d.steps.front().kind == DeclaratorStep::Kind::Function;
}

bool is_signature(const Declarator &d) {
    return !d.steps.empty() && d.steps.front().kind == DeclaratorStep::Kind::Array &&
           !d.steps.front().array_key_types.empty();
}

} // namespace

const Type *Sema::type_of(const TypeName &tn) {
    return decl_type(tn.specifiers, tn.declarator, tn.line);
}

const Type *Sema::base_type(const TypeSpecifier &spec, int line) {
    using K = TypeSpecifier::Kind;
    switch (spec.kind) {
    case K::Builtin: {
        std::string name = canonical_intrinsic_name(spec.words);
        const Type *t = name.empty() ? nullptr : types_.find_named(name);
        if (!t)
            raise_error(Tag::D_DECL_COMBO, line, "invalid type combination");
        return t;
    }
    case K::TypedefName: {
        const Type *t = types_.find_named(spec.name);
        if (!t)
            raise_error(Tag::D_TYPE_ERR, line, "failed to resolve type " + spec.name);
        return t;
    }
    case K::Struct:
    case K::Union:
    case K::Enum: {
        TypeKind kind = spec.kind == K::Struct  ? TypeKind::Struct
                        : spec.kind == K::Union ? TypeKind::Union
                                                : TypeKind::Enum;
        // A definition declares the tag itself: asking the plugins' types
        // first would make D's own `struct in_addr { ... }` a redeclaration
        // of the one a traced program's DWARF describes.
        Type *t = spec.name.empty() ? types_.anonymous(kind)
                  : spec.has_body   ? types_.declare_tag(kind, spec.name)
                                    : types_.tagged(kind, spec.name);
        if (spec.has_body) {
            if (t->complete && !spec.name.empty() && (!t->members.empty() || !t->enumerators.empty()))
                raise_error(Tag::D_DECL_TYPERED, line, "type redeclared: " + TypeTable::name_of(t));
            if (kind == TypeKind::Enum)
                define_enum(t, spec, line);
            else
                define_members(t, spec, line);
        }
        return t;
    }
    }
    raise_error(Tag::D_UNKNOWN, line, "internal error -- unknown type specifier");
}

const Type *Sema::decl_type(const DeclSpecifiers &spec, const Declarator &d, int line) {
    const Type *t = base_type(spec.type, line);
    if (spec.is_const)
        t = types_.qualified(t, TypeKind::Const);
    if (spec.is_volatile)
        t = types_.qualified(t, TypeKind::Volatile);
    // Steps are outermost first; build from the innermost.
    for (auto it = d.steps.rbegin(); it != d.steps.rend(); ++it) {
        switch (it->kind) {
        case DeclaratorStep::Kind::Pointer:
            t = types_.pointer_to(t);
            if (it->is_const)
                t = types_.qualified(t, TypeKind::Const);
            if (it->is_volatile)
                t = types_.qualified(t, TypeKind::Volatile);
            break;
        case DeclaratorStep::Kind::Array: {
            if (!it->array_key_types.empty())
                raise_unsupported(line, "an associative array type outside of a variable declaration");
            uint64_t count = 0;
            if (is_void(t))
                raise_error(Tag::D_DECL_VOIDOBJ, line, "cannot declare array of void");
            if (it->array_size) {
                NodePtr n = cook(*it->array_size, kRef);
                if (!is_positive_constant(*n))
                    raise_error(Tag::D_DECL_ARRSUB, line,
                                "positive integral constant expression or tuple signature expected as array "
                                "declaration subscript");
                if (n->value > UINT32_MAX)
                    raise_error(Tag::D_DECL_ARRBIG, line, "array dimension too big");
                count = n->value;
            }
            t = types_.array_of(t, count);
            break;
        }
        case DeclaratorStep::Kind::Function: {
            std::vector<const Type *> params;
            for (const auto &p : it->params)
                params.push_back(decl_type(p->specifiers, p->declarator, line));
            t = types_.function(t, std::move(params), it->varargs);
            break;
        }
        }
    }
    return t;
}

// Members are laid out as DTrace lays out a D declaration (type_layout.h),
// with DTrace's checks of each member.
void Sema::define_members(Type *sou, const TypeSpecifier &spec, int line) {
    MemberLayout layout(sou->kind == TypeKind::Union);
    sou->complete = false; // a struct cannot contain itself
    for (const auto &decl : spec.members) {
        int mline = decl->line ? decl->line : line;
        if (decl->declarators.empty())
            raise_error(Tag::D_DECL_MNAME, mline, "member declaration requires a name");
        for (const auto &d : decl->declarators) {
            Member m;
            m.name = d.name;
            m.type = decl_type(decl->specifiers, d, mline);
            // DTrace's CTF library refuses a second member of the same name.
            if (!d.name.empty() && std::any_of(sou->members.begin(), sou->members.end(),
                                               [&](const Member &other) { return other.name == d.name; }))
                raise_error(Tag::D_UNKNOWN, mline,
                            "failed to define member '" + d.name + "': Duplicate member name definition");
            const Type *mt = resolve(m.type);
            if (is_dynamic(mt))
                raise_error(Tag::D_DECL_DYNOBJ, mline, "cannot have dynamic member: " + d.name);
            if ((mt->kind == TypeKind::Struct || mt->kind == TypeKind::Union || mt->kind == TypeKind::Enum) &&
                !mt->complete)
                raise_error(Tag::D_DECL_INCOMPLETE, mline,
                            "incomplete struct/union/enum " + type_name(m.type) + ": " + d.name);
            uint64_t msize = types_.size_of(m.type);
            if (msize == 0)
                raise_error(Tag::D_DECL_VOIDOBJ, mline, "cannot have void member: " + d.name);
            if (d.bitfield_width) {
                NodePtr w = cook(*d.bitfield_width, kRef);
                // An unnamed zero-width field ends a storage unit in C;
                // fields are never packed together here, so it is dropped.
                if (d.name.empty() && w->kind == NodeKind::Const && w->value == 0)
                    continue;
                std::string name = d.name.empty() ? "(anon)" : d.name;
                if (!is_positive_constant(*w))
                    raise_error(Tag::D_DECL_BFCONST, mline,
                                "positive integral constant expression expected as bit-field size");
                if (mt->kind != TypeKind::Integer)
                    raise_error(Tag::D_DECL_BFTYPE, mline, "invalid type for bit-field: " + name);
                if (w->value > msize * kBitsPerByte)
                    raise_error(Tag::D_DECL_BFSIZE, mline, "bit-field too big for type: " + name);
                m.bit_width = uint32_t(w->value);
                msize = bitfield_bytes(m.bit_width);
            }
            m.offset_bits = layout.add(m.type, msize, m.bit_width);
            sou->members.push_back(std::move(m));
        }
    }
    sou->size = layout.size();
    sou->complete = true;
}

// Enumerators are ints: each is the previous one plus one unless given a
// constant that fits an int, and each becomes a global name of its own.
void Sema::define_enum(Type *e, const TypeSpecifier &spec, int line) {
    int32_t next = 0;
    for (const auto &[name, value] : spec.enumerators) {
        if (value) {
            NodePtr v = cook(*value, kRef);
            if (v->kind != NodeKind::Const)
                raise_error(Tag::D_DECL_ENCONST, line,
                            "enumerator '" + name + "' must be assigned to an integral constant expression");
            int64_t x = int64_t(v->value);
            if (x > INT32_MAX || x < INT32_MIN)
                raise_error(Tag::D_DECL_ENOFLOW, line,
                            "enumerator '" + name + "' value overflows INT_MAX (" + std::to_string(INT32_MAX) + ")");
            next = int32_t(x);
        }
        yield_predefined(name);
        if (constants_.count(name) || inlines_.count(name) || find_builtin(name) ||
            symbols_.find(dif::Scope::Global, name))
            raise_error(Tag::D_DECL_IDRED, line, "identifier redeclared: " + name);
        e->enumerators.push_back({name, next});
        constants_[name] = {next, e};
        next = int32_t(uint32_t(next) + 1); // wraps as DTrace's int does
    }
    e->size = 4;
    e->complete = true;
}

void Sema::seal_predefined() {
    for (const auto &c : constants_)
        if (c.first != kNullName) // D's own NULL (Sema's constructor) is not the library's
            predefined_.insert(c.first);
}

bool Sema::yield_predefined(const std::string &name) {
    if (predefined_.erase(name) == 0)
        return false;
    constants_.erase(name);
    return true;
}

void Sema::declare(const Declaration &d) {
    probes_ = nullptr; // outside of any clause
    const DeclSpecifiers &spec = d.specifiers;
    switch (spec.storage) {
    case StorageClass::Static:
        // A static function prototype is an extern, as DTrace takes it.
        if (!d.declarators.empty() && std::all_of(d.declarators.begin(), d.declarators.end(), is_function_declarator))
            break;
        [[fallthrough]];
    case StorageClass::Auto:
    case StorageClass::Register:
        raise_error(Tag::D_DECL_BADCLASS, d.line, "specified storage class not appropriate in D");
    case StorageClass::Inline:
        for (size_t i = 0; i < d.declarators.size(); i++)
            declare_inline(spec, d.declarators[i], i < d.initializers.size() ? d.initializers[i].get() : nullptr,
                           d.declarators[i].line ? d.declarators[i].line : d.line);
        return;
    default:
        break;
    }
    if (d.declarators.empty()) {
        auto k = spec.type.kind;
        base_type(spec.type, d.line);
        if (k != TypeSpecifier::Kind::Struct && k != TypeSpecifier::Kind::Union && k != TypeSpecifier::Kind::Enum)
            raise_error(Tag::D_DECL_USELESS, d.line, "useless declaration");
        return;
    }
    for (const auto &decl : d.declarators) {
        int line = decl.line ? decl.line : d.line;
        if (spec.storage == StorageClass::Typedef) {
            if (!types_.add_typedef(decl.name, decl_type(spec, decl, line)))
                raise_error(Tag::D_DECL_IDRED, line, "typedef redeclared: " + decl.name);
            continue;
        }
        // A function prototype declares an extern, as in DTrace (a static
        // declaration that reaches here is one).
        if (spec.storage == StorageClass::Extern || spec.storage == StorageClass::Static ||
            is_function_declarator(decl)) {
            declare_extern(decl.name, decl_type(spec, decl, line), line);
            continue;
        }
        declare_variable(spec, decl, line);
    }
}

// An extern declares a symbol of DTrace's D definitions module ("D"), as
// DTrace adds it to that module's externs: it compiles, and a program that
// then uses the name unscoped finds no variable of that name (D_IDENT_UNDEF,
// D_FUNC_UNDEF), as in DTrace. Declared again, it must keep its type.
void Sema::declare_extern(const std::string &name, const Type *type, int line) {
    auto [it, added] = externs_.emplace(name, type);
    if (!added && !types_compatible(it->second, type))
        raise_error(Tag::D_DECL_IDRED, line,
                    "identifier redeclared: " + std::string(kDefinitionsModule) + "`" + name +
                        "\n\t current: " + type_name(type) + "\n\tprevious: " + type_name(it->second));
}

// An inline array (`inline int a[int i, string s] = expr;`) is an
// expression of its parameters: a[1, "x"] is expr with i = 1, s = "x".
void Sema::declare_inline(const DeclSpecifiers &spec, const Declarator &d, const Expr *init, int line) {
    const bool array = !d.steps.empty() && d.steps.front().kind == DeclaratorStep::Kind::Array;
    if (array && !is_signature(d))
        raise_error(Tag::D_DECL_ARRNULL, line, "inline declaration requires array tuple signature: " + d.name);
    if (!init)
        raise_error(Tag::D_DECL_USELESS, line, "inline declaration requires a value: " + d.name);
    yield_predefined(d.name);
    const BuiltinIdent *b = find_builtin(d.name);
    UserVar *v = symbols_.find(dif::Scope::Global, d.name);
    bool is_inline = constants_.count(d.name) || inlines_.count(d.name);
    if (b || v || is_inline)
        raise_error(Tag::D_DECL_IDRED, line,
                    "identifier redefined: " + d.name + "\n\t current: inline definition\n\tprevious: " +
                        (b                  ? ident_kind_name(b->kind)
                         : v && v->is_array ? "associative array"
                                            : "scalar") +
                        " " + (is_inline ? "inline" : ""));
    const Type *type = array ? decl_type(spec, element_declarator(d), line) : decl_type(spec, d, line);
    if (is_void(type))
        raise_error(Tag::D_DECL_VOIDOBJ, line, "cannot declare void inline: " + d.name);
    if (array) {
        Inline in{type, init, {}};
        for (const auto &key : d.steps.front().array_key_types)
            in.params.push_back({key->declarator.name, type_of(*key), 0});
        NodePtr value = cook_inline(in, line, {}); // checked with the parameters standing for themselves
        if (!translates_to(*value, type) && !arg_compatible(type, *value))
            raise_error(Tag::D_OP_INCOMPAT, line,
                        "inline " + d.name + " definition uses incompatible types: \"" + type_name(type) + "\" = \"" +
                            node_type_name(*value) + "\"");
        inlines_[d.name] = std::move(in);
        return;
    }
    NodePtr value = cook(*init, kRef);
    if (!translates_to(*value, type) && !arg_compatible(type, *value))
        raise_error(Tag::D_OP_INCOMPAT, line,
                    "inline " + d.name + " definition uses incompatible types: \"" + type_name(type) + "\" = \"" +
                        node_type_name(*value) + "\"");
    if (value->kind == NodeKind::Const && is_integer(type))
        constants_[d.name] = {int64_t(apply_cast(register_cast(value->type, type), value->value)), type};
    else
        inlines_[d.name] = {type, init};
}

void Sema::declare_variable(const DeclSpecifiers &spec, const Declarator &d, int line) {
    dif::Scope scope = spec.storage == StorageClass::Self   ? dif::Scope::ThreadLocal
                       : spec.storage == StorageClass::This ? dif::Scope::ClauseLocal
                                                            : dif::Scope::Global;
    bool assoc = is_signature(d);
    if (!d.steps.empty() && d.steps.front().kind == DeclaratorStep::Kind::Array && !assoc &&
        !d.steps.front().array_size)
        raise_error(Tag::D_DECL_ARRNULL, line,
                    "array declaration requires array dimension or tuple signature: " + d.name);
    if (scope == dif::Scope::Global)
        yield_predefined(d.name);
    if (scope == dif::Scope::Global && find_builtin(d.name))
        raise_error(Tag::D_DECL_IDRED, line, "built-in identifier redeclared: " + d.name);
    if (assoc && scope == dif::Scope::ClauseLocal)
        raise_error(Tag::D_DECL_LOCASSC, line, "associative arrays may not be declared as local variables: " + d.name);

    std::vector<const Type *> keys;
    const Type *type;
    if (assoc) {
        for (size_t i = 1; i < d.steps.size(); i++) {
            const auto &s = d.steps[i];
            if (s.kind == DeclaratorStep::Kind::Array || s.kind == DeclaratorStep::Kind::Function)
                raise_unsupported(line, "this associative array value type");
        }
        type = decl_type(spec, element_declarator(d), line);
        for (const auto &k : d.steps.front().array_key_types)
            keys.push_back(type_of(*k));
    } else {
        type = decl_type(spec, d, line);
    }
    if (is_void(type))
        raise_error(Tag::D_DECL_VOIDOBJ, line, "cannot have void object: " + d.name);
    const Type *r = resolve(type);
    if ((r->kind == TypeKind::Struct || r->kind == TypeKind::Union || r->kind == TypeKind::Enum) && !r->complete)
        raise_error(Tag::D_DECL_INCOMPLETE, line, "incomplete struct/union/enum " + type_name(type) + ": " + d.name);

    if (UserVar *v = symbols_.find(scope, d.name)) {
        bool same = v->is_array == assoc && v->type && types_compatible(v->type, type);
        if (!same)
            raise_error(Tag::D_DECL_IDRED, line,
                        "identifier redeclared: " + d.name + "\n\t current: " +
                            ident_kind_name(assoc ? IdentKind::Array : IdentKind::Scalar) + " " + type_name(type) +
                            "\n\tprevious: " + ident_kind_name(v->is_array ? IdentKind::Array : IdentKind::Scalar) +
                            " " + (v->type ? type_name(v->type) : std::string("<none>")));
        return;
    }
    UserVar *v = symbols_.create(scope, d.name, assoc, line);
    v->type = type;
    v->declared = true;
    if (assoc) {
        v->keys = std::move(keys);
        v->has_signature = true;
    }
}

} // namespace dtrace::compiler
