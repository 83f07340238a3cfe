// predicate_filter.cpp: hoisting field-against-constant conjuncts out of a
// predicate (see predicate_filter.h).
#include "compiler/predicate_filter.h"

#include "compiler/sema_tree.h"
#include "dif/isa.h"

#include <optional>

namespace dtrace::compiler {

namespace {

using Field = FilterTerm::Field;
using Cmp = FilterTerm::Cmp;

void split_conjuncts(const Node &n, std::vector<const Node *> &out) {
    if (n.kind == NodeKind::Logical && n.op == Op::LogAnd) {
        split_conjuncts(*n.kids[0], out);
        split_conjuncts(*n.kids[1], out);
        return;
    }
    out.push_back(&n);
}

// Whether evaluating `n` may change state or fault (fire ERROR).
bool may_act(const Node &n) {
    switch (n.kind) {
    case NodeKind::Assign:
    case NodeKind::CompoundAssign:
    case NodeKind::IncDec:
    case NodeKind::Call:
    case NodeKind::Deref:
    case NodeKind::Member:
    case NodeKind::BuiltinArray: // args[] may be translated, uregs[] read
    case NodeKind::Xlated:
    case NodeKind::Translate:
    case NodeKind::XlateCopy:
    case NodeKind::AggRef:
    case NodeKind::ActCall:
        return true;
    case NodeKind::Binary:
        if (n.op == Op::Div || n.op == Op::Mod)
            return true;
        break;
    default:
        break;
    }
    for (const NodePtr &kid : n.kids)
        if (may_act(*kid))
            return true;
    return false;
}

// `n` without the conversions that leave a register's value as it is.
const Node &strip_identity_casts(const Node &n) {
    const Node *at = &n;
    while (at->kind == NodeKind::Convert) {
        const Node &inner = *at->kids[0];
        if (!is_scalar(inner.type) || !is_scalar(at->type))
            break;
        RegisterCast cast = register_cast(inner.type, at->type);
        if (cast.sign_from_bits != 0 || cast.zero_from_bits != 0)
            break;
        at = &inner;
    }
    return *at;
}

struct FieldRef {
    Field field;
    uint32_t arg_index = 0;
};

std::optional<FieldRef> field_of(const Node &n) {
    const Node &f = strip_identity_casts(n);
    if (f.kind != NodeKind::Builtin)
        return std::nullopt;
    const auto id = static_cast<dif::VarId>(f.id);
    switch (id) {
    case dif::VarId::Pid:
        return FieldRef{Field::Pid};
    case dif::VarId::Tid:
        return FieldRef{Field::Tid};
    case dif::VarId::Uid:
        return FieldRef{Field::Uid};
    case dif::VarId::Gid:
        return FieldRef{Field::Gid};
    case dif::VarId::Execname:
        return FieldRef{Field::Execname};
    default:
        break;
    }
    if (id >= dif::VarId::Arg0 && id <= dif::VarId::Arg9)
        return FieldRef{Field::Arg, f.id - static_cast<uint32_t>(dif::VarId::Arg0)};
    return std::nullopt;
}

std::optional<Cmp> comparison(Op op) {
    switch (op) {
    case Op::Eq:
        return Cmp::Eq;
    case Op::Ne:
        return Cmp::Ne;
    case Op::Lt:
        return Cmp::Lt;
    case Op::Le:
        return Cmp::Le;
    case Op::Gt:
        return Cmp::Gt;
    case Op::Ge:
        return Cmp::Ge;
    default:
        return std::nullopt;
    }
}

// `c op field` is `field mirrored(op) c`.
Cmp mirrored(Cmp op) {
    switch (op) {
    case Cmp::Lt:
        return Cmp::Gt;
    case Cmp::Le:
        return Cmp::Ge;
    case Cmp::Gt:
        return Cmp::Lt;
    case Cmp::Ge:
        return Cmp::Le;
    default:
        return op;
    }
}

std::optional<FilterTerm> compare_term(const Node &n) {
    std::optional<Cmp> op = comparison(n.op);
    if (!op)
        return std::nullopt;
    const Node *operand = n.kids[1].get();
    std::optional<FieldRef> field = field_of(*n.kids[0]);
    if (!field) {
        field = field_of(*n.kids[1]);
        operand = n.kids[0].get();
        *op = mirrored(*op);
    }
    if (!field)
        return std::nullopt;
    FilterTerm term{field->field, field->arg_index, *op, 0, {}};
    if (field->field == Field::Execname) {
        if (operand->kind != NodeKind::String || (*op != Cmp::Eq && *op != Cmp::Ne))
            return std::nullopt;
        term.string = operand->str;
        return term;
    }
    if (operand->kind != NodeKind::Const || is_string(n.common))
        return std::nullopt;
    // The VM compares the two registers, unsigned when D's common type is.
    if (*op != Cmp::Eq && *op != Cmp::Ne && !is_signed(n.common))
        return std::nullopt;
    term.value = static_cast<int64_t>(operand->value);
    return term;
}

std::optional<FilterTerm> term_of(const Node &n) {
    if (n.kind == NodeKind::Compare)
        return compare_term(n);
    // A bare integer field is true when it is not zero.
    std::optional<FieldRef> field = field_of(n);
    if (field && field->field != Field::Execname)
        return FilterTerm{field->field, field->arg_index, Cmp::Ne, 0, {}};
    return std::nullopt;
}

} // namespace

PredicateFilter hoistable_filter(const Node &predicate) {
    std::vector<const Node *> conjuncts;
    split_conjuncts(predicate, conjuncts);
    PredicateFilter filter;
    for (const Node *c : conjuncts) {
        if (std::optional<FilterTerm> term = term_of(*c)) {
            filter.push_back(std::move(*term));
            continue;
        }
        // Later conjuncts run only after this one: an event must reach it.
        if (may_act(*c))
            break;
    }
    return filter;
}

} // namespace dtrace::compiler
