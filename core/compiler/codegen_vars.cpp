// codegen_vars.cpp: loads and stores of D variables (global, self->, this->,
// associative array elements), assignment, compound assignment, ++ and --.
//
// Associative array keys go on the tuple stack, converted to the array's key
// signature; a store evaluates the value first and the keys last (as DTrace
// does), so the tuple stack is not disturbed by calls in the value.
#include "compiler/codegen_expr.h"

#include "compiler/sema.h"

namespace dtrace::compiler {

namespace {

using DOp = dif::Op;

DOp load_op(dif::Scope scope, bool array) {
    switch (scope) {
    case dif::Scope::ThreadLocal:
        return array ? DOp::Ldta : DOp::Ldtv;
    case dif::Scope::ClauseLocal:
        return DOp::Ldlv;
    default:
        return array ? DOp::Ldga : DOp::Ldgv;
    }
}

DOp store_op(dif::Scope scope, bool array) {
    switch (scope) {
    case dif::Scope::ThreadLocal:
        return array ? DOp::Stta : DOp::Sttv;
    case dif::Scope::ClauseLocal:
        return DOp::Stlv;
    default:
        return array ? DOp::Stga : DOp::Stgv;
    }
}

void check_storable(const UserVar &v, int line) {
    auto k = resolve(v.type)->kind;
    if (k == TypeKind::Struct || k == TypeKind::Union || k == TypeKind::Array)
        raise_unsupported(line, "variables of type " + TypeTable::name_of(v.type));
}

} // namespace

uint8_t ExprGen::load(const Node &lv) {
    const UserVar &v = *lv.var;
    check_storable(v, lv.line);
    if (v.is_array)
        push_tuple(lv.kids, v.keys);
    uint8_t r = b_.alloc();
    b_.emit(load_op(v.scope, v.is_array), r, 0, 0, v.id);
    b_.use_var(v);
    return r;
}

void ExprGen::store(const Node &lv, uint8_t value) {
    const UserVar &v = *lv.var;
    check_storable(v, lv.line);
    if (v.is_array)
        push_tuple(lv.kids, v.keys);
    b_.emit(store_op(v.scope, v.is_array), 0, value, 0, v.id);
    b_.use_var(v);
}

uint8_t ExprGen::gen_assign(const Node &n) {
    const Node &lhs = *n.kids[0], &rhs = *n.kids[1];
    uint8_t v = gen(rhs); // stored as it is: variables hold full registers
    store(lhs, v);
    return v;
}

// The operation is signed or unsigned as the left-hand side's type is.
uint8_t ExprGen::gen_compound(const Node &n) {
    const Node &lhs = *n.kids[0], &rhs = *n.kids[1];
    uint8_t cur = load(lhs);
    uint8_t r = gen(rhs);
    if (is_pointer(lhs.type))
        scale_pointer_operand(r, lhs.type);
    arith(n.op, cur, r, lhs.type, lhs.type);
    b_.free(r);
    store(lhs, cur);
    return cur;
}

uint8_t ExprGen::gen_incdec(const Node &n) {
    const Node &lhs = *n.kids[0];
    bool inc = n.op == Op::PreInc || n.op == Op::PostInc;
    bool post = n.op == Op::PostInc || n.op == Op::PostDec;
    uint8_t cur = load(lhs);
    uint8_t next = b_.alloc();
    b_.setx(next, 1);
    if (is_pointer(lhs.type))
        scale_pointer_operand(next, lhs.type);
    b_.emit(inc ? DOp::Add : DOp::Sub, next, cur, next);
    store(lhs, next);
    if (post) {
        b_.free(next);
        return cur;
    }
    b_.free(cur);
    return next;
}

} // namespace dtrace::compiler
