// codegen_expr.h: DIF code for the typed expressions of sema_tree.h.
//
// gen() leaves a node's value in a fresh register, in canonical form for the
// node's type: integers narrower than 64 bits sign- or zero-extended from
// their width, so that 64-bit DIF arithmetic and comparisons give C's
// results; strings and by-reference values as addresses. Operands are
// converted to the type the node computes in (the usual arithmetic
// conversions), results of narrow arithmetic are reduced to their width, and
// && || ?: branch forward around the operand they may skip.
//   codegen_expr.cpp   constants, operators, conversions, calls
//   codegen_vars.cpp   variable loads and stores, assignment, ++ and --
#pragma once

#include "compiler/codegen_emitter.h"
#include "compiler/sema_tree.h"

#include <cstdint>

namespace dtrace::compiler {

class ExprGen {
  public:
    explicit ExprGen(DifoBuilder &b) : b_(b) {}

    uint8_t gen(const Node &n);
    // Converts the value in `reg` from type `from` to type `to` in place.
    void convert(uint8_t reg, const Type *from, const Type *to);

  private:
    // codegen_expr.cpp
    void reduce(uint8_t reg, const Type *t); // to canonical form after narrow arithmetic
    uint8_t gen_unary(const Node &n);
    uint8_t gen_deref(const Node &n);
    uint8_t gen_binary(const Node &n);
    void arith(Op op, uint8_t l, uint8_t r, const Type *t, const Type *left_type);
    void scale_pointer_operand(uint8_t reg, const Type *ptr);
    uint8_t gen_compare(const Node &n);
    uint8_t gen_logical(const Node &n);
    uint8_t gen_ternary(const Node &n);
    uint8_t gen_call(const Node &n);
    void push_tuple(const std::vector<NodePtr> &args, const std::vector<const Type *> &params);

    // codegen_vars.cpp
    uint8_t load(const Node &lvalue);
    void store(const Node &lvalue, uint8_t value);
    uint8_t gen_assign(const Node &n);
    uint8_t gen_compound(const Node &n);
    uint8_t gen_incdec(const Node &n);

    DifoBuilder &b_;
};

} // namespace dtrace::compiler
