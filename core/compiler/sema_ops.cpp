// sema_ops.cpp: the operators: which operand types each accepts (DTrace's
// D_OP_* checks and messages), the type of the result (the usual arithmetic
// conversions, pointer arithmetic, string comparison), and constant folding
// where DTrace folds.
#include "compiler/sema.h"

#include <algorithm>

namespace dtrace::compiler {

namespace {

NodePtr make_node(NodeKind kind, const Type *type, int line, Op op = Op::None) {
    auto n = std::make_unique<Node>();
    n->kind = kind;
    n->type = type;
    n->line = line;
    n->op = op;
    return n;
}

bool is_compare(Op op) {
    return op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge || op == Op::Eq || op == Op::Ne;
}

bool is_compound_assign(Op op) {
    switch (op) {
    case Op::MulAssign:
    case Op::DivAssign:
    case Op::ModAssign:
    case Op::AddAssign:
    case Op::SubAssign:
    case Op::ShlAssign:
    case Op::ShrAssign:
    case Op::AndAssign:
    case Op::XorAssign:
    case Op::OrAssign:
        return true;
    default:
        return false;
    }
}

} // namespace

// DTrace's dt_node_is_ptrcompat(). Its string is an array of char, so a
// string compares with and takes 0 (NULL), a char pointer or a void pointer.
bool Sema::ptr_compatible(const Type *l, bool l_zero, const Type *r, bool r_zero, const Type **out) const {
    if (is_dynamic(l) || is_dynamic(r))
        return false;
    bool li = is_integer(l), ri = is_integer(r);
    if ((li && ri) || (li && !l_zero) || (ri && !r_zero))
        return false;
    const Type *char_type = types_.named("char");
    auto referent = [char_type](const Type *t) -> const Type * {
        const Type *b = resolve(t);
        if (b->kind == TypeKind::String)
            return char_type;
        return b->kind == TypeKind::Pointer || b->kind == TypeKind::Array ? resolve(b->ref) : nullptr;
    };
    const Type *lref = li ? referent(r) : referent(l);
    const Type *rref = ri ? referent(l) : referent(r);
    const Type *lt = li ? r : l, *rt = ri ? l : r;
    if (!lref || !rref)
        return false;
    bool lvoid = lref->kind == TypeKind::Void, rvoid = rref->kind == TypeKind::Void;
    if (!lvoid && !rvoid && !types_compatible(lref, rref))
        return false;
    if (out)
        *out = rvoid ? lt : rt;
    return true;
}

bool Sema::arg_compatible(const Type *param, const Node &arg) const {
    if (is_integer(param) && is_integer(arg.type))
        return true;
    if (is_strcompat(param) && is_strcompat(arg.type))
        return true;
    auto k = resolve(param)->kind;
    if (k == TypeKind::Function || k == TypeKind::Struct || k == TypeKind::Union)
        return types_compatible(param, arg.type);
    return ptr_compatible(param, false, arg.type, is_zero_const(arg), nullptr);
}

NodePtr Sema::cook(const Expr &e, unsigned flags) {
    switch (e.kind) {
    case ExprKind::IntLiteral:
    case ExprKind::CharLiteral:
        return int_literal(e);
    case ExprKind::StringLiteral: {
        NodePtr n = make_node(NodeKind::String, types_.string_type(), e.line);
        n->str = e.text;
        return n;
    }
    case ExprKind::Identifier:
        return cook_ident(e, flags);
    case ExprKind::AggregationRef:
        return cook_aggref(e);
    case ExprKind::Unary:
        if (e.op == Op::PreInc || e.op == Op::PreDec)
            return cook_incdec(e);
        return cook_unary(e);
    case ExprKind::Postfix:
        return cook_incdec(e);
    case ExprKind::Binary:
        return cook_binary(e);
    case ExprKind::Ternary:
        return cook_ternary(e);
    case ExprKind::Cast:
        return cook_cast(e);
    case ExprKind::Sizeof:
        return cook_sizeof(e);
    case ExprKind::Offsetof:
        return cook_offsetof(e);
    case ExprKind::Stringof:
        return cook_stringof(e);
    case ExprKind::Xlate:
        return cook_xlate(e);
    case ExprKind::Call:
        return cook_call(e);
    case ExprKind::Index:
        return cook_index(e, flags);
    case ExprKind::Member:
        return cook_member(e, flags);
    }
    raise_error(Tag::D_UNKNOWN, e.line, "internal error -- unknown expression kind");
}

NodePtr Sema::cook_unary(const Expr &e) {
    NodePtr child = cook(*e.args[0], kRef);
    std::string op = op_name(e.op);
    switch (e.op) {
    case Op::Deref:
        if (child->kind == NodeKind::Xlated && child->op == Op::Arrow) {
            child->op = Op::Dot; // *xlate<T *>(e) is the translated struct
            return child;
        }
        return cook_deref(e.line, std::move(child));
    case Op::AddrOf:
        return cook_addrof(e.line, std::move(child));
    case Op::Plus:
    case Op::Minus:
        if (!is_arith(child->type))
            raise_error(Tag::D_OP_ARITH, e.line, "operator " + op + " requires an operand of arithmetic type");
        break;
    case Op::BitNot:
        if (!is_integer(child->type))
            raise_error(Tag::D_OP_INT, e.line, "operator " + op + " requires an operand of integral type");
        break;
    case Op::LogNot:
        if (!is_scalar(child->type))
            raise_error(Tag::D_OP_SCALAR, e.line, "operator " + op + " requires an operand of scalar type");
        break;
    default:
        raise_error(Tag::D_UNKNOWN, e.line, "invalid unary op " + op);
    }
    if (child->kind == NodeKind::Const)
        return fold_unary(e.op, std::move(child), e.line);
    NodePtr n = make_node(NodeKind::Unary, e.op == Op::LogNot ? types_.int_type() : child->type, e.line, e.op);
    n->kids.push_back(std::move(child));
    return n;
}

// &x: only memory has an address (what * or a member access designates).
NodePtr Sema::cook_addrof(int line, NodePtr child) {
    switch (child->kind) {
    case NodeKind::Var:
    case NodeKind::ArrayElem:
    case NodeKind::Builtin:
    case NodeKind::BuiltinArray:
    case NodeKind::AggRef:
        raise_error(Tag::D_ADDROF_VAR, line, "cannot take address of dynamic variable");
    case NodeKind::Deref:
    case NodeKind::Member:
        break;
    default:
        if (is_dynamic(child->type))
            raise_error(Tag::D_ADDROF_VAR, line, "cannot take address of dynamic object");
        raise_error(Tag::D_ADDROF_LVAL, line, "unacceptable operand for unary & operator");
    }
    if (child->bit_width != 0)
        raise_error(Tag::D_ADDROF_BITFIELD, line, "cannot take address of bit-field");
    NodePtr n = make_node(NodeKind::Unary, types_.pointer_to(child->type), line, Op::AddrOf);
    n->kids.push_back(std::move(child));
    return n;
}

NodePtr Sema::cook_deref(int line, NodePtr child) {
    const Type *t = resolve(child->type);
    if (t->kind != TypeKind::Pointer && t->kind != TypeKind::Array)
        raise_error(Tag::D_DEREF_NONPTR, line, "cannot dereference non-pointer type");
    const Type *target = resolve(t->ref);
    if (target->kind == TypeKind::Void)
        raise_error(Tag::D_DEREF_VOID, line, "cannot dereference pointer to void");
    if (target->kind == TypeKind::Function)
        raise_error(Tag::D_DEREF_FUNC, line, "cannot dereference pointer to function");
    if (!is_scalar(target) && !is_float(target) && !is_string(target) && target->kind != TypeKind::Struct &&
        target->kind != TypeKind::Union && target->kind != TypeKind::Array)
        raise_unsupported(line, "dereferencing a pointer to " + type_name(t->ref));
    NodePtr n = make_node(NodeKind::Deref, t->ref, line);
    n->kids.push_back(std::move(child));
    return n;
}

NodePtr Sema::cook_binary(const Expr &e) {
    if (e.op == Op::Assign)
        return cook_assign(e);
    if (is_compound_assign(e.op))
        return cook_compound(e);
    NodePtr l = cook(*e.args[0], kRef);
    std::string op = op_name(e.op);

    if (is_compare(e.op) && resolve(l->type)->kind == TypeKind::Enum && e.args[1]->kind == ExprKind::Identifier &&
        !e.args[1]->scoped) {
        const Type *et = resolve(l->type);
        auto it = std::find_if(et->enumerators.begin(), et->enumerators.end(),
                               [&](const Enumerator &en) { return en.name == e.args[1]->text; });
        if (it != et->enumerators.end()) {
            const std::string &tag = e.args[1]->text;
            const char *kind = find_builtin(tag)                        ? ident_kind_name(find_builtin(tag)->kind)
                               : symbols_.find(dif::Scope::Global, tag) ? "scalar"
                                                                        : nullptr;
            if (kind)
                raise_error(Tag::D_IDENT_AMBIG, e.line,
                            "ambiguous use of operator " + op + ": " + tag + " is both a " + type_name(l->type) +
                                " enum tag and a global " + kind);
            NodePtr tag_value = make_const(uint64_t(it->value), l->type, e.line);
            return cook_compare(e, std::move(l), std::move(tag_value));
        }
    }
    NodePtr r = cook(*e.args[1], kRef);

    switch (e.op) {
    case Op::Comma: {
        if (is_dynamic(l->type) || is_dynamic(r->type))
            raise_error(Tag::D_OP_DYN, e.line, "operator , operands cannot be of dynamic type");
        if (l->kind == NodeKind::ActCall || r->kind == NodeKind::ActCall)
            raise_error(Tag::D_OP_ACT, e.line, "operator , operands cannot be actions");
        NodePtr n = make_node(NodeKind::Comma, r->type, e.line, e.op);
        n->kids.push_back(std::move(l));
        n->kids.push_back(std::move(r));
        return n;
    }
    case Op::LogAnd:
    case Op::LogOr:
    case Op::LogXor:
        return cook_logical(e.op, e.line, std::move(l), std::move(r));
    default:
        break;
    }
    if (is_compare(e.op))
        return cook_compare(e, std::move(l), std::move(r));
    if ((e.op == Op::Div || e.op == Op::Mod) && is_zero_const(*r))
        raise_error(Tag::D_DIV_ZERO, e.line, "expression contains division by zero");
    return cook_arith(e.op, e.line, std::move(l), std::move(r));
}

NodePtr Sema::cook_arith(Op opcode, int line, NodePtr l, NodePtr r) {
    std::string op = op_name(opcode);
    const Type *type = nullptr;
    auto require_int = [&] {
        if (!is_integer(l->type) || !is_integer(r->type))
            raise_error(Tag::D_OP_INT, line, "operator " + op + " requires operands of integral type");
    };
    switch (opcode) {
    case Op::BitAnd:
    case Op::BitXor:
    case Op::BitOr:
    case Op::Mod:
        require_int();
        type = usual_conversion(l->type, r->type, types_.int_type());
        break;
    case Op::Shl:
    case Op::Shr:
        require_int();
        type = l->type;
        break;
    case Op::Mul:
    case Op::Div:
        if (!is_arith(l->type) || !is_arith(r->type))
            raise_error(Tag::D_OP_ARITH, line, "operator " + op + " requires operands of arithmetic type");
        type = usual_conversion(l->type, r->type, types_.int_type());
        break;
    case Op::Add:
    case Op::Sub: {
        // A string counts as a pointer here (DTrace's string is an array of
        // char): s + 1 is the string from its second byte.
        auto pointer_like = [](const Type *t) { return is_string(t) || (is_pointer(t) && !is_vfptr(t)); };
        bool lp = pointer_like(l->type), rp = pointer_like(r->type);
        bool li = is_integer(l->type), ri = is_integer(r->type);
        if (li && ri)
            type = usual_conversion(l->type, r->type, types_.int_type());
        else if (lp && ri)
            type = l->type;
        else if (li && rp && opcode == Op::Add)
            type = r->type;
        else if (lp && rp && opcode == Op::Sub && ptr_compatible(l->type, false, r->type, false, nullptr))
            type = types_.named("ptrdiff_t");
        else
            raise_error(Tag::D_OP_INCOMPAT, line,
                        "operands have incompatible types: \"" + node_type_name(*l) + "\" " + op + " \"" +
                            node_type_name(*r) + "\"");
        break;
    }
    default:
        raise_error(Tag::D_UNKNOWN, line, "invalid binary op " + op);
    }
    if (l->kind == NodeKind::Const && r->kind == NodeKind::Const) {
        const Type *folded = nullptr;
        if (auto v = fold_binary(opcode, *l, *r, folded))
            return make_const(*v, folded, line);
    }
    NodePtr n = make_node(NodeKind::Binary, type, line, opcode);
    n->kids.push_back(std::move(l));
    n->kids.push_back(std::move(r));
    return n;
}

NodePtr Sema::cook_logical(Op opcode, int line, NodePtr l, NodePtr r) {
    if (!is_scalar(l->type) || !is_scalar(r->type))
        raise_error(Tag::D_OP_SCALAR, line, "operator " + op_name(opcode) + " requires operands of scalar type");
    const Type *t = nullptr;
    if (l->kind == NodeKind::Const && r->kind == NodeKind::Const)
        if (auto v = fold_binary(opcode, *l, *r, t))
            return make_const(*v, t, line);
    NodePtr n = make_node(NodeKind::Logical, types_.int_type(), line, opcode);
    n->kids.push_back(std::move(l));
    n->kids.push_back(std::move(r));
    return n;
}

NodePtr Sema::cook_compare(const Expr &e, NodePtr l, NodePtr r) {
    bool ok = types_compatible(l->type, r->type) || (is_integer(l->type) && is_integer(r->type)) ||
              (is_strcompat(l->type) && is_strcompat(r->type) && (is_string(l->type) || is_string(r->type))) ||
              ptr_compatible(l->type, is_zero_const(*l), r->type, is_zero_const(*r), nullptr);
    if (!ok || is_dynamic(l->type) || is_dynamic(r->type))
        raise_error(Tag::D_OP_INCOMPAT, e.line,
                    "operands have incompatible types: \"" + node_type_name(*l) + "\" " + op_name(e.op) + " \"" +
                        node_type_name(*r) + "\"");
    if (l->kind == NodeKind::Const && r->kind == NodeKind::Const) {
        const Type *t = nullptr;
        if (auto v = fold_binary(e.op, *l, *r, t))
            return make_const(*v, t, e.line);
    }
    NodePtr n = make_node(NodeKind::Compare, types_.int_type(), e.line, e.op);
    if (is_string(l->type) || is_string(r->type))
        n->common = types_.string_type();
    else if (is_integer(l->type) && is_integer(r->type))
        n->common = usual_conversion(l->type, r->type, types_.int_type());
    else
        n->common = types_.named("uintptr_t"); // pointers compare unsigned
    n->kids.push_back(std::move(l));
    n->kids.push_back(std::move(r));
    return n;
}

NodePtr Sema::cook_ternary(const Expr &e) {
    NodePtr cond = cook(*e.args[0], kRef);
    if (cond->kind == NodeKind::Const) // DTrace picks the branch while parsing
        return cook(*e.args[cond->value ? 1 : 2], kRef);
    NodePtr l = cook(*e.args[1], kRef);
    NodePtr r = cook(*e.args[2], kRef);
    if (!is_scalar(cond->type))
        raise_error(Tag::D_OP_SCALAR, e.line, "operator ?: expression must be of scalar type");
    if (is_dynamic(l->type) || is_dynamic(r->type))
        raise_error(Tag::D_OP_DYN, e.line, "operator ?: operands cannot be of dynamic type");
    const Type *type = nullptr;
    if (types_compatible(l->type, r->type))
        type = l->type;
    else if (is_integer(l->type) && is_integer(r->type))
        type = usual_conversion(l->type, r->type, types_.int_type());
    else if (is_strcompat(l->type) && is_strcompat(r->type) && (is_string(l->type) || is_string(r->type)))
        type = types_.string_type();
    else if (!ptr_compatible(l->type, is_zero_const(*l), r->type, is_zero_const(*r), &type))
        raise_error(Tag::D_OP_INCOMPAT, e.line, "operator ?: operands must have compatible types");
    if (l->kind == NodeKind::ActCall || r->kind == NodeKind::ActCall)
        raise_error(Tag::D_OP_ACT, e.line, "action cannot be used in a conditional context");
    NodePtr n = make_node(NodeKind::Ternary, type, e.line);
    n->kids.push_back(std::move(cond));
    n->kids.push_back(std::move(l));
    n->kids.push_back(std::move(r));
    return n;
}

NodePtr Sema::cook_cast(const Expr &e) {
    const Type *to = type_of(*e.type_name);
    NodePtr child = cook(*e.args[0], kRef);
    const Type *from = child->type;
    auto kind = resolve(from)->kind;
    bool ok = types_compatible(to, from) || (is_scalar(to) && (is_scalar(from) || kind == TypeKind::Function)) ||
              is_void(to) || (resolve(to)->kind == TypeKind::Pointer && is_pointer(from)) ||
              (is_string(to) && (is_scalar(from) || is_pointer(from) || is_strcompat(from)));
    if (!ok || is_dynamic(from))
        raise_error(Tag::D_CAST_INVAL, e.line,
                    "invalid cast expression: \"" + node_type_name(*child) + "\" to \"" + type_name(to) + "\"");
    if (child->kind == NodeKind::Const && is_integer(to))
        return make_const(cast_constant(child->value, from, to), to, e.line);
    NodePtr n = make_node(NodeKind::Convert, to, e.line);
    n->writable_cast = resolve(to)->kind == TypeKind::Pointer;
    n->kids.push_back(std::move(child));
    return n;
}

NodePtr Sema::cook_sizeof(const Expr &e) {
    uint64_t size = 0;
    if (e.type_name)
        size = types_.size_of(type_of(*e.type_name));
    else if (e.args[0]->kind == ExprKind::StringLiteral)
        size = e.args[0]->text.size() + 1;
    else {
        NodePtr operand = cook(*e.args[0], kRef);
        if (operand->bit_width != 0)
            raise_error(Tag::D_SIZEOF_BITFIELD, e.line, "cannot apply sizeof to a bit-field");
        size = types_.size_of(operand->type);
    }
    if (size == 0)
        raise_error(Tag::D_SIZEOF_TYPE, e.line, "cannot apply sizeof to an operand of unknown size");
    return make_const(size, types_.named("size_t"), e.line);
}

NodePtr Sema::cook_stringof(const Expr &e) {
    NodePtr child = cook(*e.args[0], kRef);
    if (!is_scalar(child->type) && !is_pointer(child->type) && !is_strcompat(child->type))
        raise_error(Tag::D_STRINGOF_TYPE, e.line, "cannot apply stringof to a value of type " + node_type_name(*child));
    NodePtr n = make_node(NodeKind::Convert, types_.string_type(), e.line);
    n->kids.push_back(std::move(child));
    return n;
}

NodePtr Sema::cook_offsetof(const Expr &e) {
    const Type *t = resolve(type_of(*e.type_name));
    if (t->kind != TypeKind::Struct && t->kind != TypeKind::Union)
        raise_error(Tag::D_OFFSETOF_TYPE, e.line, "offsetof operand must be a struct or union type");
    types_.complete(t);
    auto m = std::find_if(t->members.begin(), t->members.end(), [&](const Member &m) { return m.name == e.text; });
    if (m == t->members.end())
        raise_error(Tag::D_UNKNOWN, e.line, "failed to determine offset of " + e.text + ": Member name not found");
    if (m->bit_width != 0)
        raise_error(Tag::D_OFFSETOF_BITFIELD, e.line, "cannot take offset of a bit-field: " + e.text);
    return make_const(m->offset_bits / 8, types_.int_type(), e.line);
}

} // namespace dtrace::compiler
