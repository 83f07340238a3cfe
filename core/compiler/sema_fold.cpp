// sema_fold.cpp: integer constants.
//
// DTrace types an integer literal by C99's rules (the first of a list of
// types, chosen by suffix and radix, that can represent it) and folds
// operators whose operands are all constants while it parses, so that a
// folded expression is itself a constant: lquantize() parameters, args[]
// indices and division-by-zero checks see folded values. Like DTrace, folding
// keeps full 64-bit values and never reduces them to their type's width: the
// value is cut only when it is recorded, so `(2147483647 + 1) > 0` folds to 1.
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

// DTrace's cast of an integer constant (dt_cast), which differs from the
// run-time conversion: narrowing keeps the low bits zero-extended even for a
// signed type, so (char)255 stays 255 (and (char)-1 < 0 is false) while a
// run-time (char) sign-extends; widening extends from the source's width.
uint64_t Sema::cast_constant(uint64_t value, const Type *from, const Type *to) {
    uint64_t fsize = scalar_size(from), tsize = scalar_size(to);
    if (tsize < fsize)
        return zero_extend(value, unsigned(tsize * kBitsPerByte));
    if (tsize > fsize) {
        if (!is_signed(from))
            return zero_extend(value, unsigned(fsize * kBitsPerByte));
        return zero_extend(sign_extend(value, unsigned(fsize * kBitsPerByte)), unsigned(tsize * kBitsPerByte));
    }
    return value;
}

NodePtr Sema::make_const(uint64_t value, const Type *type, int line) const {
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::Const;
    n->type = type;
    n->value = value;
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
    raise_error(Tag::D_INT_OFLOW, e.line, buf);
}

NodePtr Sema::fold_unary(Op op, NodePtr child, int line) {
    uint64_t v = child->value;
    switch (op) {
    case Op::Minus:
        v = -v;
        // Negating an unsigned constant keeps it within its type's width.
        if (!is_signed(child->type))
            v = zero_extend(v, unsigned(scalar_size(child->type) * kBitsPerByte));
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

// The result type is the usual conversion of the operands' types (the left
// operand's for shifts, int for comparisons and logical operators); only
// ordering comparisons, division and remainder look at its signedness.
std::optional<uint64_t> Sema::fold_binary(Op op, const Node &l, const Node &r, const Type *&type) const {
    const Type *common = usual_conversion(l.type, r.type, types_.int_type());
    const Type *int_t = types_.int_type();
    uint64_t a = l.value, b = r.value;
    bool sign = is_signed(common);
    auto slt = [](uint64_t x, uint64_t y) { return int64_t(x) < int64_t(y); };
    auto result = [&](uint64_t v, const Type *t) -> std::optional<uint64_t> {
        type = t;
        return v;
    };
    unsigned shift = unsigned(b & (kRegisterBits - 1));
    switch (op) {
    case Op::LogOr:
        return result(a || b, int_t);
    case Op::LogXor:
        return result((a != 0) != (b != 0), int_t);
    case Op::LogAnd:
        return result(a && b, int_t);
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
        return result(a << shift, l.type);
    case Op::Shr: // a logical shift whatever the type, as DTrace folds it
        return result(a >> shift, l.type);
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
