// sema_fold.cpp: integer constants.
//
// DTrace types an integer literal by C99's rules (the first of a list of
// types, chosen by suffix and radix, that can represent it) and folds
// operators whose operands are all constants while it parses, so that a
// folded expression is itself a constant: lquantize() parameters, args[]
// indices and division-by-zero checks see folded values. Folded values are
// kept in canonical form for their type (see sema_tree.h), which is the value
// C gives; DTrace keeps the unreduced 64-bit value and truncates only when it
// records, so the two can differ where an intermediate overflows its type.
#include "compiler/sema.h"

#include <cinttypes>
#include <cstdio>

namespace dtrace::compiler {

namespace {

struct IntLiteralType {
    const char *type;
    uint64_t limit;
};

// The candidate types of an integer literal, in C99's order (LP64).
constexpr IntLiteralType kLiteralTypes[] = {
    {"int", uint64_t(INT32_MAX)},  {"unsigned int", uint64_t(UINT32_MAX)}, {"long", uint64_t(INT64_MAX)},
    {"unsigned long", UINT64_MAX}, {"long long", uint64_t(INT64_MAX)},     {"unsigned long long", UINT64_MAX},
};

// Where the list starts for each suffix (u: +1, l: +2, ll: +4).
unsigned literal_start(IntSuffix s) {
    switch (s) {
    case IntSuffix::None:
        return 0;
    case IntSuffix::U:
        return 1;
    case IntSuffix::L:
        return 2;
    case IntSuffix::UL:
        return 3;
    case IntSuffix::LL:
        return 4;
    case IntSuffix::ULL:
        return 5;
    }
    return 0;
}

bool has_unsigned_suffix(IntSuffix s) {
    return s == IntSuffix::U || s == IntSuffix::UL || s == IntSuffix::ULL;
}

constexpr unsigned kRegisterBits = 64;

} // namespace

uint64_t Sema::canonical(uint64_t value, const Type *type) {
    const Type *r = resolve(type);
    uint64_t size = scalar_size(type);
    if (r->kind == TypeKind::String || size == 0 || size >= kRegisterBits / kBitsPerByte)
        return value;
    unsigned bits = unsigned(size * kBitsPerByte);
    uint64_t mask = (uint64_t(1) << bits) - 1;
    value &= mask;
    if (is_signed(type) && (value >> (bits - 1)) & 1)
        value |= ~mask;
    return value;
}

NodePtr Sema::make_const(uint64_t value, const Type *type, int line) const {
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::Const;
    n->type = type;
    n->value = canonical(value, type);
    n->line = line;
    return n;
}

NodePtr Sema::int_literal(const Expr &e) {
    if (e.kind == ExprKind::CharLiteral)
        return make_const(e.int_value, types_.int_type(), e.line);
    // Decimal literals without a u suffix only take the signed types.
    unsigned step = (!e.int_from_octal_or_hex || has_unsigned_suffix(e.int_suffix)) ? 2 : 1;
    for (unsigned i = literal_start(e.int_suffix); i < std::size(kLiteralTypes); i += step) {
        if (e.int_value <= kLiteralTypes[i].limit)
            return make_const(e.int_value, types_.named(kLiteralTypes[i].type), e.line);
    }
    char buf[96];
    std::snprintf(buf, sizeof buf, "integer constant 0x%" PRIx64 " cannot be represented in any built-in integral type",
                  e.int_value);
    raise_error("D_INT_OFLOW", e.line, buf);
}

NodePtr Sema::fold_unary(Op op, NodePtr child, int line) {
    uint64_t v = child->value;
    switch (op) {
    case Op::Minus:
        v = -v;
        break;
    case Op::BitNot:
        v = ~v;
        break;
    case Op::LogNot:
        v = !v; // keeps the operand's type, as DTrace does
        break;
    default:
        break;
    }
    return make_const(v, child->type, line);
}

std::optional<uint64_t> Sema::fold_binary(Op op, const Node &l, const Node &r, const Type *&type) const {
    const Type *common = usual_conversion(l.type, r.type, types_.int_type());
    uint64_t a = canonical(l.value, common), b = canonical(r.value, common);
    bool sign = is_signed(common);
    auto slt = [](uint64_t x, uint64_t y) { return int64_t(x) < int64_t(y); };
    auto result = [&](uint64_t v, const Type *t) -> std::optional<uint64_t> {
        type = t;
        return canonical(v, t);
    };
    const Type *int_t = types_.int_type();
    unsigned shift = unsigned(r.value & (kRegisterBits - 1));
    switch (op) {
    case Op::LogOr:
        return result(l.value || r.value, int_t);
    case Op::LogXor:
        return result((l.value != 0) != (r.value != 0), int_t);
    case Op::LogAnd:
        return result(l.value && r.value, int_t);
    case Op::BitOr:
        return result(a | b, common);
    case Op::BitXor:
        return result(a ^ b, common);
    case Op::BitAnd:
        return result(a & b, common);
    case Op::Eq:
        return result(a == b, int_t);
    case Op::Ne:
        return result(a != b, int_t);
    case Op::Lt:
        return result(sign ? slt(a, b) : a < b, int_t);
    case Op::Le:
        return result(sign ? !slt(b, a) : a <= b, int_t);
    case Op::Gt:
        return result(sign ? slt(b, a) : a > b, int_t);
    case Op::Ge:
        return result(sign ? !slt(a, b) : a >= b, int_t);
    case Op::Shl:
        return result(l.value << shift, l.type);
    case Op::Shr:
        return result(is_signed(l.type) ? uint64_t(int64_t(l.value) >> shift) : l.value >> shift, l.type);
    case Op::Add:
        return result(a + b, common);
    case Op::Sub:
        return result(a - b, common);
    case Op::Mul:
        return result(a * b, common);
    case Op::Div:
    case Op::Mod: {
        if (b == 0)
            return std::nullopt; // left to fault at run time
        bool div = op == Op::Div;
        if (sign && int64_t(b) == -1) // INT64_MIN / -1 wraps
            return result(div ? -a : 0, common);
        if (sign)
            return result(div ? uint64_t(int64_t(a) / int64_t(b)) : uint64_t(int64_t(a) % int64_t(b)), common);
        return result(div ? a / b : a % b, common);
    }
    default:
        return std::nullopt;
    }
}

} // namespace dtrace::compiler
