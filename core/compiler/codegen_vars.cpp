// codegen_vars.cpp: loads and stores of D variables (global, self->, this->,
// associative array elements), assignment, compound assignment, ++ and --
// (of variables, and of memory lvalues through codegen_expr.cpp's stores).
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

bool is_variable(const Node &n) {
    return n.kind == NodeKind::Var || n.kind == NodeKind::ArrayElem;
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
    if (is_variable(lhs)) {
        store(lhs, v);
    } else {
        uint8_t address = lvalue_address(lhs);
        store_through(address, lhs, v);
        b_.free(address);
    }
    return v;
}

// A variable's value, or for a memory lvalue the value at its address
// (computed once: `address` keeps it for the store).
uint8_t ExprGen::load_for_update(const Node &lv, uint8_t &address) {
    if (is_variable(lv))
        return load(lv);
    address = lvalue_address(lv);
    uint8_t cur = b_.alloc();
    load_through(address, lv, cur);
    return cur;
}

void ExprGen::store_update(const Node &lv, uint8_t address, uint8_t value) {
    if (is_variable(lv)) {
        store(lv, value);
        return;
    }
    store_through(address, lv, value);
    b_.free(address);
}

// The operation is signed or unsigned as the left-hand side's type is.
uint8_t ExprGen::gen_compound(const Node &n) {
    const Node &lhs = *n.kids[0], &rhs = *n.kids[1];
    uint8_t address = 0;
    uint8_t cur = load_for_update(lhs, address);
    uint8_t r = gen(rhs);
    if (is_pointer(lhs.type))
        scale_pointer_operand(r, lhs.type);
    arith(n.op, cur, r, lhs.type, lhs.type);
    b_.free(r);
    store_update(lhs, address, cur);
    return cur;
}

uint8_t ExprGen::gen_incdec(const Node &n) {
    const Node &lhs = *n.kids[0];
    bool inc = n.op == Op::PreInc || n.op == Op::PostInc;
    bool post = n.op == Op::PostInc || n.op == Op::PostDec;
    uint8_t address = 0;
    uint8_t cur = load_for_update(lhs, address);
    uint8_t next = b_.alloc();
    b_.setx(next, 1);
    if (is_pointer(lhs.type))
        scale_pointer_operand(next, lhs.type);
    b_.emit(inc ? DOp::Add : DOp::Sub, next, cur, next);
    store_update(lhs, address, next);
    if (post) {
        b_.free(next);
        return cur;
    }
    b_.free(cur);
    return next;
}

} // namespace dtrace::compiler
