// sema_xlate.cpp: translators, the xlate operator, and args[] elements of
// translated types.
//
// A translator `translator out_t < in_t p > { m = expr; ... };` tells how to
// compute each member of the struct (or union) out_t from an in_t. As in
// DTrace, its member expressions are checked where it is defined, with `p`
// standing for the input, and generated where a member is used:
// xlate<out_t>(e).m (or xlate<out_t *>(e)->m, or args[i].m when args[i] is
// translated) becomes the member's expression with `p` bound to the value
// of e, evaluated once, then converted to the member's type. A translated
// struct assigned whole (v = xlate<out_t>(e), or *xlate<out_t *>(e)) is a
// copy of every translated member, the others zero, as the Guide says.
// Nothing else may be done with a translated value: it is of no type D can
// hold (its type is dynamic), so trace(), printf() and the like reject it as
// DTrace does.
#include "compiler/sema.h"

#include <algorithm>

namespace dtrace::compiler {

namespace {

NodePtr new_node(NodeKind kind, const Type *type, int line) {
    auto n = std::make_unique<Node>();
    n->kind = kind;
    n->type = type;
    n->line = line;
    return n;
}

const Member *find_member(const Type *sou, const std::string &name) {
    const Type *t = resolve(sou);
    auto m = std::find_if(t->members.begin(), t->members.end(), [&](const Member &m) { return m.name == name; });
    return m == t->members.end() ? nullptr : &*m;
}

const Expr *translator_member(const Translator &x, const std::string &name) {
    for (const auto &[member, value] : x.members)
        if (member == name)
            return value.get();
    return nullptr;
}

} // namespace

NodePtr Sema::xlate_param(const std::string &name, int line) {
    for (auto it = xlate_params_.rbegin(); it != xlate_params_.rend(); ++it) {
        if (it->name == name) {
            NodePtr n = new_node(NodeKind::XlateInput, it->type, line);
            n->id = it->id;
            return n;
        }
    }
    return nullptr;
}

// DTrace's lookup (dt_xlator_lookup): a translator to `output` (its struct
// when `output` is a pointer) from the input's exact type, else from a type
// the input is compatible with as an argument. `exact` skips the latter.
const Sema::TranslatorDef *Sema::find_translator(const Node &input, const Type *output, bool exact) const {
    const Type *out = resolve(output);
    if (out->kind == TypeKind::Pointer)
        out = resolve(out->ref);
    for (const auto &x : translators_)
        if (types_compatible(x.input, input.type) && types_compatible(x.output, out))
            return &x;
    if (exact)
        return nullptr;
    for (const auto &x : translators_)
        if (types_compatible(x.output, out) && arg_compatible(x.input, input))
            return &x;
    return nullptr;
}

void Sema::declare_translator(const Translator &t) {
    probes_ = nullptr; // outside of any clause
    TranslatorDef x;
    x.output = type_of(*t.output_type);
    x.input = type_of(*t.input_type);
    x.ast = &t;
    Node input;
    input.type = x.input;
    if (find_translator(input, x.output, true))
        raise_error(Tag::D_XLATE_REDECL, t.line,
                    "translator from " + type_name(x.input) + " to " + type_name(x.output) +
                        " has already been declared");
    const Type *out = resolve(x.output);
    if ((out->kind == TypeKind::Struct || out->kind == TypeKind::Union) && !out->complete)
        raise_error(Tag::D_XLATE_SOU, t.line, "incomplete struct/union/enum " + type_name(x.output));
    if (out->kind != TypeKind::Struct && out->kind != TypeKind::Union)
        raise_error(Tag::D_XLATE_SOU, t.line, "translator output type must be a struct or union");
    for (const auto &[name, value] : t.members) {
        const Member *m = find_member(out, name);
        if (!m)
            raise_error(Tag::D_XLATE_MEMB, value->line,
                        "translator member " + name + " is not a member of " + type_name(x.output));
        NodePtr v = cook_translator_member(x, *value, next_xlate_id_++);
        if (!arg_compatible(m->type, *v))
            raise_error(Tag::D_XLATE_INCOMPAT, value->line,
                        "translator member " + name + " definition uses incompatible types: \"" + type_name(m->type) +
                            "\" = \"" + node_type_name(*v) + "\"");
    }
    translators_.push_back(x);
}

NodePtr Sema::cook_translator_member(const TranslatorDef &x, const Expr &value, uint32_t id) {
    xlate_params_.push_back({x.ast->input_name, x.input, id});
    struct Pop {
        std::vector<XlateParam> &params;
        ~Pop() { params.pop_back(); }
    } pop{xlate_params_};
    return cook(value, kRef);
}

NodePtr Sema::translated(const TranslatorDef &x, NodePtr input, bool pointer, int line) {
    NodePtr n = new_node(NodeKind::Xlated, types_.dynamic_type(), line);
    n->value = uint64_t(&x - translators_.data());
    n->op = pointer ? Op::Arrow : Op::Dot;
    n->kids.push_back(std::move(input));
    return n;
}

// Whether a value is translated to type `to`: the translator's output, or a
// pointer to it when the value was translated to a pointer. Such a value
// may define an inline of that type, as DTrace's curpsinfo and fds[] are.
bool Sema::translates_to(const Node &xlated, const Type *to) const {
    if (xlated.kind != NodeKind::Xlated)
        return false;
    const TranslatorDef &x = translators_[size_t(xlated.value)];
    const Type *t = resolve(to);
    if (xlated.op == Op::Arrow)
        return t->kind == TypeKind::Pointer && types_compatible(resolve(t->ref), x.output);
    return types_compatible(t, x.output);
}

NodePtr Sema::cook_xlate(const Expr &e) {
    const Type *to = type_of(*e.type_name);
    NodePtr input = cook(*e.args[0], kRef);
    const TranslatorDef *x = find_translator(*input, to, false);
    if (!x)
        raise_error(Tag::D_XLATE_NONE, e.line,
                    "cannot translate from \"" + node_type_name(*input) + "\" to \"" + type_name(to) + "\"");
    return translated(*x, std::move(input), resolve(to)->kind == TypeKind::Pointer, e.line);
}

// base.member where base is a translated value: the member's expression,
// with the input bound, converted to the member's type.
NodePtr Sema::cook_translated_member(const Expr &e, NodePtr base) {
    const TranslatorDef &x = translators_[size_t(base->value)];
    const Expr *value = translator_member(*x.ast, e.text);
    if (!value)
        raise_error(Tag::D_XLATE_NOCONV, e.line, "translator does not define conversion for member: " + e.text);
    bool pointer = base->op == Op::Arrow;
    if (e.op == Op::Arrow && !pointer)
        raise_error(Tag::D_OP_PTR, e.line, "operator -> must be applied to a pointer");
    if (e.op == Op::Dot && pointer)
        raise_error(Tag::D_OP_SOU, e.line,
                    "operator . cannot be applied to type \"" + type_name(types_.pointer_to(x.output)) +
                        "\"; must be applied to a struct or union");
    uint32_t id = next_xlate_id_++;
    NodePtr n = new_node(NodeKind::Translate, find_member(x.output, e.text)->type, e.line);
    n->id = id;
    n->kids.push_back(std::move(base->kids[0]));
    n->kids.push_back(cook_translator_member(x, *value, id));
    return n;
}

// A translated struct as a whole value (what assignment copies): every
// member the translator defines, computed from the input evaluated once.
NodePtr Sema::translated_copy(NodePtr xlated, int line) {
    const TranslatorDef &x = translators_[size_t(xlated->value)];
    uint32_t id = next_xlate_id_++;
    NodePtr n = new_node(NodeKind::XlateCopy, x.output, line);
    n->id = id;
    n->kids.push_back(std::move(xlated->kids[0]));
    for (const auto &[name, value] : x.ast->members) {
        const Member *m = find_member(x.output, name);
        if (m->bit_width != 0)
            raise_unsupported(line, "copying a translated struct with a bit-field member (" + name + ")");
        NodePtr v = new_node(NodeKind::Convert, m->type, line);
        v->kids.push_back(cook_translator_member(x, *value, id));
        n->kids.push_back(std::move(v));
        n->offsets.push_back(m->offset_bits / kBitsPerByte);
    }
    return n;
}

// args[i] whose probe gives it a translated type: the translator's output
// for the native argument, unless the two types are compatible anyway.
NodePtr Sema::translated_arg(NodePtr arg, const Type *native, const Type *xlated, int64_t index, int line) {
    arg->type = native;
    if (types_compatible(native, xlated) || arg_compatible(xlated, *arg)) {
        arg->type = xlated;
        return arg;
    }
    const TranslatorDef *x = find_translator(*arg, xlated, false);
    if (!x)
        raise_error(Tag::D_ARGS_XLATOR, line,
                    "translator for args[" + std::to_string(index) + "] from " + type_name(native) + " to " +
                        type_name(xlated) + " is not defined");
    return translated(*x, std::move(arg), resolve(xlated)->kind == TypeKind::Pointer, line);
}

} // namespace dtrace::compiler
