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

bool is_variable(const Node &n) {
    return n.kind == NodeKind::Var || n.kind == NodeKind::ArrayElem;
}

// Structs, unions, arrays and long doubles: variables that hold them hold their bytes.
bool is_by_value_object(const Type *t) {
    auto k = resolve(t)->kind;
    return k == TypeKind::Struct || k == TypeKind::Union || k == TypeKind::Array ||
           (k == TypeKind::Float && !in_register(t));
}

// The variable a member or element lvalue (v.a.b, v.a[i]) lies in, if any.
const Node *struct_variable_of(const Node &lv) {
    const Node *root = storage_variable(lv);
    return root != &lv ? root : nullptr;
}

} // namespace

uint8_t ExprGen::load(const Node &lv) {
    const UserVar &v = *lv.var;
    if (v.is_array)
        push_tuple(lv.kids, v.keys);
    uint8_t r = b_.alloc();
    b_.emit(load_op(v.scope, v.is_array), r, 0, 0, v.id);
    b_.use_var(v);
    if (is_by_value_object(v.type)) {
        // A struct or array never stored reads as zeroed bytes, not a null pointer.
        int set = b_.new_label();
        b_.branch(DOp::Bnz, r, set);
        uint8_t size = b_.alloc();
        b_.setx(size, resolve(v.type)->size);
        b_.emit(DOp::Allocs, r, size);
        b_.free(size);
        b_.place(set);
    }
    return r;
}

// Stores into a member or element of a variable (v.m = x, v.a[i] = x) work
// on a copy in scratch, which is then stored whole: a variable's storage is
// never written through a pointer. The lvalue's address is computed in the copy.
uint8_t ExprGen::struct_copy(const Node &var) {
    uint8_t size = b_.alloc();
    b_.setx(size, resolve(var.type)->size);
    uint8_t copy = b_.alloc();
    b_.emit(DOp::Allocs, copy, size);
    uint8_t current = load(var);
    b_.emit(DOp::Copys, copy, current, size);
    b_.free(current);
    b_.free(size);
    return copy;
}

void ExprGen::store(const Node &lv, uint8_t value) {
    const UserVar &v = *lv.var;
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
        uint8_t address = member_or_memory_address(lhs);
        if (is_string(lhs.type)) // its bytes, up to the NUL, within the member's size
            copy_bytes(address, v, rhs, resolve(lhs.type)->size);
        else
            store_through(address, lhs, v);
        store_update_root(lhs, address);
    }
    return v;
}

// A memory lvalue's address; for a member of a struct variable, its address
// in a fresh copy of the variable (cow_) that store_update_root() stores back.
uint8_t ExprGen::member_or_memory_address(const Node &lv) {
    const Node *root = struct_variable_of(lv);
    if (!root)
        return lvalue_address(lv);
    uint8_t copy = struct_copy(*root);
    cow_[root] = copy;
    uint8_t address = lvalue_address(lv);
    cow_.erase(root);
    cow_copies_.push_back(copy);
    return address;
}

void ExprGen::store_update_root(const Node &lv, uint8_t address) {
    b_.free(address);
    if (const Node *root = struct_variable_of(lv)) {
        uint8_t copy = cow_copies_.back();
        cow_copies_.pop_back();
        store(*root, copy);
        b_.free(copy);
    }
}

// A variable's value, or for a memory lvalue the value at its address
// (computed once: `address` keeps it for the store).
uint8_t ExprGen::load_for_update(const Node &lv, uint8_t &address) {
    if (is_variable(lv))
        return load(lv);
    address = member_or_memory_address(lv);
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
    store_update_root(lv, address);
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
