// codegen_expr.h: DIF code for the typed expressions of sema_tree.h.
//
// gen() leaves a node's value in a fresh register. As in DTrace, registers
// hold full 64-bit values: arithmetic is done in 64 bits whatever the
// operands' types, and nothing is reduced to a type's width except where
// DTrace does it: loads from memory (by the loaded type's size and sign),
// args[] elements, casts, and arguments converted to the parameter types of
// subroutines and the key types of associative arrays (register_cast). A
// recorded value is cut to its type's size when it is recorded, so
// `(2147483647 + 1) > 0` is true while trace(2147483647 + 1) prints
// -2147483648. Strings and by-reference values are addresses. && || ?:
// branch forward around the operand they may skip.
//   codegen_expr.cpp   constants, operators, conversions, calls
//   codegen_vars.cpp   variable loads and stores, assignment, ++ and --
#pragma once

#include "compiler/codegen_emitter.h"
#include "compiler/sema_tree.h"

#include <cstdint>
#include <map>
#include <vector>

namespace dtrace::compiler {

class ExprGen {
  public:
    explicit ExprGen(DifoBuilder &b) : b_(b) {}

    uint8_t gen(const Node &n);
    // Converts the value in `reg` from type `from` to type `to` in place
    // (register_cast: narrowing, signedness, sign-extension).
    void convert(uint8_t reg, const Type *from, const Type *to);

  private:
    // codegen_expr.cpp
    void extend(uint8_t reg, const Type *t); // keeps only t's bits, sign- or zero-extended
    uint8_t gen_unary(const Node &n);
    uint8_t gen_deref(const Node &n);
    uint8_t member_address(const Node &n);
    void load_bitfield(uint8_t reg, const Node &n);
    uint8_t lvalue_address(const Node &lvalue);
    void load_through(uint8_t address, const Node &lvalue, uint8_t into);
    void store_through(uint8_t address, const Node &lvalue, uint8_t value);
    uint8_t gen_binary(const Node &n);
    void check_bound(uint8_t base, uint8_t index, uint64_t bound);
    void arith(Op op, uint8_t l, uint8_t r, const Type *t, const Type *left_type);
    void scale_pointer_operand(uint8_t reg, const Type *ptr);
    uint8_t gen_compare(const Node &n);
    uint8_t gen_logical(const Node &n);
    uint8_t gen_ternary(const Node &n);
    uint8_t gen_call(const Node &n);
    uint8_t gen_translate(const Node &n);
    uint8_t gen_xlate_copy(const Node &n);
    void copy_bytes(uint8_t to, uint8_t from, const Node &from_node, uint64_t size);
    void push_tuple(const std::vector<NodePtr> &args, const std::vector<const Type *> &params);

    // codegen_vars.cpp
    uint8_t load(const Node &lvalue);
    void store(const Node &lvalue, uint8_t value);
    uint8_t struct_copy(const Node &var);
    uint8_t member_or_memory_address(const Node &lvalue);
    void store_update_root(const Node &lvalue, uint8_t address);
    uint8_t load_for_update(const Node &lvalue, uint8_t &address);
    void store_update(const Node &lvalue, uint8_t address, uint8_t value);
    uint8_t gen_assign(const Node &n);
    uint8_t gen_compound(const Node &n);
    uint8_t gen_incdec(const Node &n);

    DifoBuilder &b_;
    std::map<uint32_t, uint8_t> xlate_inputs_; // translation id -> the register holding its input
    // Struct variables being updated through a member: the register holding
    // the scratch copy that stands for the variable while the address is
    // computed, and the copies awaiting their store back.
    std::map<const Node *, uint8_t> cow_;
    std::vector<uint8_t> cow_copies_;
};

} // namespace dtrace::compiler
