// sema_assign.cpp: the operators that store: =, the compound assignments,
// and ++ / --.
//
// Their left-hand side may create the variable it names. A plain assignment
// gives a new variable the type of its right-hand side; ++ and -- give it
// int64_t; a compound assignment reads the variable first, so a new one is
// D_VAR_UNDEF. What is writable follows DTrace (is_writable).
#include "compiler/sema.h"

namespace dtrace::compiler {

namespace {

bool is_var(const Node &n) {
    return n.kind == NodeKind::Var || n.kind == NodeKind::ArrayElem;
}

// The arithmetic operator a compound assignment applies.
Op base_op(Op op) {
    switch (op) {
    case Op::MulAssign:
        return Op::Mul;
    case Op::DivAssign:
        return Op::Div;
    case Op::ModAssign:
        return Op::Mod;
    case Op::AddAssign:
        return Op::Add;
    case Op::SubAssign:
        return Op::Sub;
    case Op::ShlAssign:
        return Op::Shl;
    case Op::ShrAssign:
        return Op::Shr;
    case Op::AndAssign:
        return Op::BitAnd;
    case Op::XorAssign:
        return Op::BitXor;
    default:
        return Op::BitOr;
    }
}

// DTrace's DT_NF_WRITABLE: a user variable; an explicit cast to a pointer
// type; *p (or p[i], which is *(p + i)) where p is writable; a member of a
// writable struct or through a writable pointer. So stores through pointers held in variables are allowed (they
// fault at run time unless the memory is scratch, e.g. from alloca()).
bool is_writable(const Node &n) {
    if (is_var(n) || n.writable_cast)
        return true;
    if (n.kind == NodeKind::Member)
        return is_writable(*n.kids[0]);
    if (n.kind != NodeKind::Deref)
        return false;
    const Node &p = *n.kids[0];
    return is_writable(p) || (p.kind == NodeKind::Binary && p.op == Op::Add && is_writable(*p.kids[0]));
}

} // namespace

NodePtr Sema::cook_lvalue_target(const Expr &e, const char *op, bool create_int64) {
    NodePtr n;
    switch (e.kind) {
    case ExprKind::Identifier:
        n = resolve_global(e, kNoRef, true);
        break;
    case ExprKind::Member:
        n = cook_member(e, kNoRef);
        break;
    case ExprKind::Index:
        n = cook_index(e, kNoRef);
        break;
    case ExprKind::AggregationRef:
        raise_unsupported(e.line, std::string("operator ") + op + " applied to an aggregation inside an expression");
    default:
        n = cook(e, kNoRef);
        break;
    }
    if (create_int64 && is_var(*n) && n->var->unref() && !n->var->type) {
        n->var->type = types_.named("int64_t");
        n->type = n->var->type;
    }
    return n;
}

void Sema::check_writable(const Node &lhs, const char *op, int line) const {
    bool lvalue = is_var(lhs) || lhs.kind == NodeKind::Builtin || lhs.kind == NodeKind::BuiltinArray ||
                  lhs.kind == NodeKind::Deref || lhs.kind == NodeKind::Member;
    if (!lvalue)
        raise_error(Tag::D_OP_LVAL, line, std::string("operator ") + op + " requires modifiable lvalue as an operand");
    if (!is_writable(lhs))
        raise_error(Tag::D_OP_WRITE, line,
                    std::string("operator ") + op + " can only be applied to a writable variable");
}

NodePtr Sema::cook_assign(const Expr &e) {
    NodePtr lhs = cook_lvalue_target(*e.args[0], "=", false);
    NodePtr rhs = cook(*e.args[1], kRef);
    // A translated struct may be assigned to a variable of its type (a new
    // one takes it); a translated pointer to nothing, as its object exists
    // only member by member (DTrace's message, types named as it names them).
    if (rhs->kind == NodeKind::Xlated) {
        const bool fresh = is_var(*lhs) && lhs->var->unref() && !lhs->var->type;
        if (rhs->op == Op::Arrow || (!fresh && !translates_to(*rhs, lhs->type)))
            raise_error(Tag::D_OP_INCOMPAT, e.line,
                        "operands have incompatible types: \"" + node_type_name(*lhs) + "\" = \"" +
                            node_type_name(*rhs) + "\"");
        rhs = translated_copy(std::move(rhs), e.line);
    }
    if (is_var(*lhs)) {
        if (lhs->var->unref() && !lhs->var->type) {
            lhs->var->type = rhs->type;
            lhs->type = rhs->type;
        }
        lhs->var->modified = true;
    }
    if (!is_string(lhs->type)) {
        auto k = resolve(lhs->type)->kind;
        if (k == TypeKind::Array || k == TypeKind::Function)
            raise_error(Tag::D_OP_ARRFUN, e.line,
                        "operator = may not be applied to operand of type \"" + node_type_name(*lhs) + "\"");
    }
    if (!arg_compatible(lhs->type, *rhs))
        raise_error(Tag::D_OP_INCOMPAT, e.line,
                    "operands have incompatible types: \"" + node_type_name(*lhs) + "\" = \"" + node_type_name(*rhs) +
                        "\"");
    check_writable(*lhs, "=", e.line);
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::Assign;
    n->type = lhs->type;
    n->line = e.line;
    n->kids.push_back(std::move(lhs));
    n->kids.push_back(std::move(rhs));
    return n;
}

NodePtr Sema::cook_compound(const Expr &e) {
    std::string op = op_name(e.op);
    NodePtr lhs = cook_lvalue_target(*e.args[0], op.c_str(), false);
    if (is_var(*lhs))
        use_var(lhs->var, e.line, kRef | kMod);
    NodePtr rhs = cook(*e.args[1], kRef | kMod);
    if ((e.op == Op::DivAssign || e.op == Op::ModAssign) && is_zero_const(*rhs))
        raise_error(Tag::D_DIV_ZERO, e.line, "expression contains division by zero");
    bool both_int = is_integer(lhs->type) && is_integer(rhs->type);
    switch (e.op) {
    case Op::MulAssign:
    case Op::DivAssign:
        if (!is_arith(lhs->type) || !is_arith(rhs->type))
            raise_error(Tag::D_OP_ARITH, e.line, "operator " + op + " requires operands of arithmetic type");
        break;
    case Op::AddAssign:
    case Op::SubAssign:
        if (is_string(lhs->type) || is_string(rhs->type))
            raise_error(Tag::D_OP_INCOMPAT, e.line,
                        "operands have incompatible types: \"" + node_type_name(*lhs) + "\" " + op + " \"" +
                            node_type_name(*rhs) + "\"");
        if (!both_int) {
            if (!is_pointer(lhs->type) || is_vfptr(lhs->type))
                raise_error(Tag::D_OP_VFPTR, e.line,
                            "operator " + op + " requires left-hand scalar operand of known size");
            if (!is_integer(rhs->type))
                raise_unsupported(e.line, "operator " + op + " with a pointer right-hand operand");
        }
        break;
    default:
        if (!both_int)
            raise_error(Tag::D_OP_INT, e.line, "operator " + op + " requires operands of integral type");
        break;
    }
    check_writable(*lhs, op.c_str(), e.line);
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::CompoundAssign;
    n->op = base_op(e.op);
    n->type = lhs->type;
    n->line = e.line;
    n->kids.push_back(std::move(lhs));
    n->kids.push_back(std::move(rhs));
    return n;
}

NodePtr Sema::cook_incdec(const Expr &e) {
    Op op = e.op;
    if (e.kind == ExprKind::Postfix && op != Op::PostDec)
        op = op == Op::PreDec ? Op::PostDec : Op::PostInc;
    std::string name = op_name(op);
    NodePtr child = cook_lvalue_target(*e.args[0], name.c_str(), true);
    if (is_var(*child)) {
        child->var->referenced = true;
        child->var->modified = true;
    }
    if (!is_scalar(child->type))
        raise_error(Tag::D_OP_SCALAR, e.line, "operator " + name + " requires operand of scalar type");
    if (is_vfptr(child->type))
        raise_error(Tag::D_OP_VFPTR, e.line, "operator " + name + " requires an operand of known size");
    check_writable(*child, name.c_str(), e.line);
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::IncDec;
    n->op = op;
    n->type = child->type;
    n->line = e.line;
    n->kids.push_back(std::move(child));
    return n;
}

} // namespace dtrace::compiler
