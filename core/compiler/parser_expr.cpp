// parser_expr.cpp: D expressions, with C's precedence plus D's ^^ between
// && and ||, as in DTrace's grammar:
//   expression   := assignment { , assignment }
//   assignment   := conditional | unary assign-op assignment
//   conditional  := logical-or [ ? expression : conditional ]
//   binary levels, loosest first: || ^^ && | ^ & (== !=) (< <= > >=)
//                (<< >>) (+ -) (* / %), all left-associative
//   cast         := unary | ( type-name ) cast
//   unary        := postfix | ++ unary | -- unary | (& * + - ~ !) cast
//                 | sizeof unary | sizeof ( type-name ) | stringof unary
//   postfix      := primary { [ args ] | ( [args] ) | . name | -> name | ++ | -- }
//   primary      := identifier | @agg | integer | character | string | self
//                 | this | ( expression ) | offsetof ( type-name , name )
//                 | xlate < type-name > ( expression )
// An assignment's left side must be a unary expression, which the parse
// functions report through `is_unary`.
#include "compiler/parser_impl.h"

#include <array>
#include <cstdio>
#include <utility>

namespace dtrace::compiler {

namespace {

// The integer types a constant may take, in DTrace's dt_ints[] order (LP64):
// int, unsigned int, long, unsigned long, long long, unsigned long long.
constexpr std::array<uint64_t, 6> kIntLimits = {INT32_MAX, UINT32_MAX, INT64_MAX, UINT64_MAX, INT64_MAX, UINT64_MAX};
constexpr std::array<IntSuffix, 6> kSuffixes = {IntSuffix::None, IntSuffix::U,  IntSuffix::L,
                                                IntSuffix::UL,   IntSuffix::LL, IntSuffix::ULL};

struct BinaryOp {
    Tok tok;
    Op op;
    int precedence;
};

constexpr std::array kBinaryOps = {
    BinaryOp{Tok::LogOr, Op::LogOr, 1},  BinaryOp{Tok::LogXor, Op::LogXor, 2}, BinaryOp{Tok::LogAnd, Op::LogAnd, 3},
    BinaryOp{Tok::BitOr, Op::BitOr, 4},  BinaryOp{Tok::BitXor, Op::BitXor, 5}, BinaryOp{Tok::BitAnd, Op::BitAnd, 6},
    BinaryOp{Tok::Eq, Op::Eq, 7},        BinaryOp{Tok::Ne, Op::Ne, 7},         BinaryOp{Tok::Lt, Op::Lt, 8},
    BinaryOp{Tok::Le, Op::Le, 8},        BinaryOp{Tok::Gt, Op::Gt, 8},         BinaryOp{Tok::Ge, Op::Ge, 8},
    BinaryOp{Tok::Shl, Op::Shl, 9},      BinaryOp{Tok::Shr, Op::Shr, 9},       BinaryOp{Tok::Plus, Op::Add, 10},
    BinaryOp{Tok::Minus, Op::Sub, 10},   BinaryOp{Tok::Star, Op::Mul, 11},     BinaryOp{Tok::Slash, Op::Div, 11},
    BinaryOp{Tok::Percent, Op::Mod, 11},
};
constexpr int kLoosestBinary = 1;

const BinaryOp *find_binary(Tok tok) {
    for (const BinaryOp &b : kBinaryOps) {
        if (b.tok == tok)
            return &b;
    }
    return nullptr;
}

Op assignment_op(Tok tok) {
    switch (tok) {
    case Tok::Assign:
        return Op::Assign;
    case Tok::MulAssign:
        return Op::MulAssign;
    case Tok::DivAssign:
        return Op::DivAssign;
    case Tok::ModAssign:
        return Op::ModAssign;
    case Tok::AddAssign:
        return Op::AddAssign;
    case Tok::SubAssign:
        return Op::SubAssign;
    case Tok::ShlAssign:
        return Op::ShlAssign;
    case Tok::ShrAssign:
        return Op::ShrAssign;
    case Tok::AndAssign:
        return Op::AndAssign;
    case Tok::XorAssign:
        return Op::XorAssign;
    case Tok::OrAssign:
        return Op::OrAssign;
    default:
        return Op::None;
    }
}

Op unary_op(Tok tok) {
    switch (tok) {
    case Tok::BitAnd:
        return Op::AddrOf;
    case Tok::Star:
        return Op::Deref;
    case Tok::Plus:
        return Op::Plus;
    case Tok::Minus:
        return Op::Minus;
    case Tok::Tilde:
        return Op::BitNot;
    case Tok::Bang:
        return Op::LogNot;
    default:
        return Op::None;
    }
}

ExprPtr make_expr(ExprKind kind, int line, Op op = Op::None) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->line = line;
    e->op = op;
    return e;
}

ExprPtr make_unary(ExprKind kind, Op op, ExprPtr operand, int line) {
    ExprPtr e = make_expr(kind, line, op);
    e->args.push_back(std::move(operand));
    return e;
}

ExprPtr make_binary(Op op, ExprPtr lhs, ExprPtr rhs, int line) {
    ExprPtr e = make_expr(ExprKind::Binary, line, op);
    e->args.push_back(std::move(lhs));
    e->args.push_back(std::move(rhs));
    return e;
}

// `name` or `mod`name (see Expr::scoped).
ExprPtr identifier(const Token &t) {
    ExprPtr e = make_expr(ExprKind::Identifier, t.line);
    const size_t mark = t.value.rfind('`');
    if (mark == std::string::npos) {
        e->text = t.value;
    } else {
        e->scoped = true;
        e->module = t.value.substr(0, mark);
        e->text = t.value.substr(mark + 1);
    }
    return e;
}

} // namespace

ExprPtr Parser::parse_expression() {
    ExprPtr e = parse_assignment();
    for (DepthGuard chain(*this, 0); at(Tok::Comma); chain.deeper()) {
        take();
        ExprPtr rhs = parse_assignment();
        e = make_binary(Op::Comma, std::move(e), std::move(rhs), cur().line);
    }
    return e;
}

ExprPtr Parser::parse_assignment() {
    DepthGuard depth(*this);
    bool is_unary = false;
    ExprPtr lhs = parse_conditional(is_unary);
    const Op op = assignment_op(cur().kind);
    if (op == Op::None)
        return lhs;
    if (!is_unary)
        syntax_error();
    take();
    ExprPtr rhs = parse_assignment();
    return make_binary(op, std::move(lhs), std::move(rhs), cur().line);
}

ExprPtr Parser::parse_constant_expression() {
    bool is_unary = false;
    return parse_conditional(is_unary);
}

ExprPtr Parser::parse_conditional(bool &is_unary) {
    DepthGuard depth(*this);
    ExprPtr cond = parse_binary(kLoosestBinary, is_unary);
    if (!at(Tok::Question))
        return cond;
    take();
    is_unary = false;
    ExprPtr then = parse_expression();
    expect(Tok::Colon);
    bool ignored = false;
    ExprPtr otherwise = parse_conditional(ignored);
    ExprPtr e = make_expr(ExprKind::Ternary, cur().line);
    e->args.push_back(std::move(cond));
    e->args.push_back(std::move(then));
    e->args.push_back(std::move(otherwise));
    return e;
}

// Precedence climbing over the left-associative binary levels.
ExprPtr Parser::parse_binary(int min_precedence, bool &is_unary) {
    ExprPtr lhs = parse_cast(is_unary);
    for (DepthGuard chain(*this, 0);; chain.deeper()) {
        const BinaryOp *b = find_binary(cur().kind);
        if (b == nullptr || b->precedence < min_precedence)
            return lhs;
        take();
        bool ignored = false;
        ExprPtr rhs = parse_binary(b->precedence + 1, ignored);
        lhs = make_binary(b->op, std::move(lhs), std::move(rhs), cur().line);
        is_unary = false;
    }
}

ExprPtr Parser::parse_cast(bool &is_unary) {
    DepthGuard depth(*this);
    is_unary = true;
    if (!at(Tok::LParen))
        return parse_unary();
    take();
    if (!starts_type_name(cur().kind)) {
        ExprPtr inner = parse_expression();
        expect(Tok::RParen);
        return parse_postfix_tail(std::move(inner));
    }
    auto type = parse_type_name();
    expect(Tok::RParen);
    bool ignored = false;
    ExprPtr operand = parse_cast(ignored);
    ExprPtr e = make_unary(ExprKind::Cast, Op::None, std::move(operand), cur().line);
    e->type_name = std::move(type);
    is_unary = false;
    return e;
}

ExprPtr Parser::parse_unary() {
    DepthGuard depth(*this);
    const Tok kind = cur().kind;
    if (kind == Tok::PlusPlus || kind == Tok::MinusMinus) {
        take();
        ExprPtr operand = parse_unary();
        return make_unary(ExprKind::Unary, kind == Tok::PlusPlus ? Op::PreInc : Op::PreDec, std::move(operand),
                          cur().line);
    }
    if (Op op = unary_op(kind); op != Op::None) {
        take();
        bool ignored = false;
        ExprPtr operand = parse_cast(ignored);
        return make_unary(ExprKind::Unary, op, std::move(operand), cur().line);
    }
    if (kind == Tok::KwSizeof) {
        take();
        if (!at(Tok::LParen)) {
            ExprPtr operand = parse_unary();
            return make_unary(ExprKind::Sizeof, Op::None, std::move(operand), cur().line);
        }
        take();
        if (!starts_type_name(cur().kind)) {
            ExprPtr inner = parse_expression();
            expect(Tok::RParen);
            ExprPtr operand = parse_postfix_tail(std::move(inner));
            return make_unary(ExprKind::Sizeof, Op::None, std::move(operand), cur().line);
        }
        auto type = parse_type_name();
        ExprPtr e = make_expr(ExprKind::Sizeof, expect(Tok::RParen).line);
        e->type_name = std::move(type);
        return e;
    }
    if (kind == Tok::KwStringof) {
        take();
        ExprPtr operand = parse_unary();
        return make_unary(ExprKind::Stringof, Op::None, std::move(operand), cur().line);
    }
    return parse_postfix_tail(parse_primary());
}

ExprPtr Parser::parse_postfix_tail(ExprPtr e) {
    DepthGuard chain(*this, 0);
    for (;; chain.deeper()) {
        switch (cur().kind) {
        case Tok::LBracket: {
            take();
            std::vector<ExprPtr> args = parse_arguments();
            const int line = expect(Tok::RBracket).line;
            if (e->kind == ExprKind::AggregationRef && e->args.empty()) {
                e->args = std::move(args);
                e->line = line;
            } else {
                ExprPtr index = make_unary(ExprKind::Index, Op::None, std::move(e), line);
                for (ExprPtr &a : args)
                    index->args.push_back(std::move(a));
                e = std::move(index);
            }
            break;
        }
        case Tok::LParen: {
            take();
            std::vector<ExprPtr> args;
            if (!at(Tok::RParen))
                args = parse_arguments();
            const int line = expect(Tok::RParen).line;
            e = make_call(std::move(e), std::move(args), line);
            break;
        }
        case Tok::Dot:
        case Tok::Arrow: {
            const Op op = take().kind == Tok::Dot ? Op::Dot : Op::Arrow;
            if (!at(Tok::Ident) && !at(Tok::TypeName))
                syntax_error();
            Token name = take();
            ExprPtr member = make_unary(ExprKind::Member, op, std::move(e), name.line);
            member->text = name.value;
            e = std::move(member);
            break;
        }
        case Tok::PlusPlus:
        case Tok::MinusMinus: {
            const Token t = take();
            e = make_unary(ExprKind::Postfix, t.kind == Tok::PlusPlus ? Op::PostInc : Op::PostDec, std::move(e),
                           t.line);
            break;
        }
        default:
            return e;
        }
    }
}

// DTrace calls a function through an identifier only (dt_node_func); the
// name is looked up by semantic analysis.
ExprPtr Parser::make_call(ExprPtr callee, std::vector<ExprPtr> args, int rparen_line) {
    std::string name;
    if (callee->kind == ExprKind::Identifier)
        name = callee->scoped ? callee->module + "`" + callee->text : callee->text;
    else if (callee->kind == ExprKind::AggregationRef && callee->args.empty())
        name = "@" + (callee->text.empty() ? std::string("_") : callee->text);
    else
        fail(Tag::D_FUNC_IDENT, rparen_line, "function designator is not of function type");
    ExprPtr call = make_expr(ExprKind::Call, callee->line);
    call->text = std::move(name);
    call->args = std::move(args);
    return call;
}

std::vector<ExprPtr> Parser::parse_arguments() {
    std::vector<ExprPtr> args;
    args.push_back(parse_assignment());
    while (at(Tok::Comma)) {
        take();
        args.push_back(parse_assignment());
    }
    return args;
}

ExprPtr Parser::parse_primary() {
    switch (cur().kind) {
    case Tok::Ident:
        return identifier(take());
    case Tok::KwSelf:
    case Tok::KwThis: {
        Token t = take();
        ExprPtr e = make_expr(ExprKind::Identifier, t.line);
        e->text = t.text;
        return e;
    }
    case Tok::IntLit:
        return int_literal(take());
    case Tok::StringLit: {
        Token t = take();
        ExprPtr e = make_expr(ExprKind::StringLiteral, t.line);
        e->text = std::move(t.value);
        return e;
    }
    case Tok::Agg: {
        Token t = take();
        ExprPtr e = make_expr(ExprKind::AggregationRef, t.line);
        e->text = t.value == "_" ? std::string() : t.value;
        return e;
    }
    case Tok::LParen: {
        take();
        ExprPtr e = parse_expression();
        expect(Tok::RParen);
        return e;
    }
    case Tok::KwOffsetof: {
        take();
        expect(Tok::LParen);
        auto type = parse_type_name();
        expect(Tok::Comma);
        if (!at(Tok::Ident) && !at(Tok::TypeName))
            syntax_error();
        Token member = take();
        ExprPtr e = make_expr(ExprKind::Offsetof, expect(Tok::RParen).line);
        e->type_name = std::move(type);
        e->text = std::move(member.value);
        return e;
    }
    case Tok::KwXlate: {
        take();
        expect(Tok::Lt);
        auto type = parse_type_name();
        expect(Tok::Gt);
        expect(Tok::LParen);
        ExprPtr operand = parse_expression();
        ExprPtr e = make_unary(ExprKind::Xlate, Op::None, std::move(operand), expect(Tok::RParen).line);
        e->type_name = std::move(type);
        return e;
    }
    default:
        syntax_error();
    }
}

// An integer constant takes the first type of its suffix's list that holds
// it (DTrace's dt_node_int); none is an error. A macro argument's sign
// becomes a unary operator.
ExprPtr Parser::int_literal(const Token &t) const {
    if (t.is_char_constant) {
        ExprPtr e = make_expr(ExprKind::CharLiteral, t.line);
        e->int_value = t.int_value;
        e->text = t.value;
        return e;
    }
    size_t first = 0;
    for (char c : t.int_suffix) {
        if (c == 'u' || c == 'U')
            first += 1;
        else if (c == 'l' || c == 'L')
            first += 2;
    }
    const size_t step = (t.int_decimal || (!t.int_suffix.empty() && t.int_suffix[0] == 'u')) ? 2 : 1;
    bool fits = false;
    for (size_t i = first; i < kIntLimits.size() && !fits; i += step)
        fits = t.int_value <= kIntLimits[i];
    if (!fits) {
        char hex[sizeof("0x") + 2 * sizeof(uint64_t)];
        std::snprintf(hex, sizeof(hex), "0x%llx", static_cast<unsigned long long>(t.int_value));
        fail(Tag::D_INT_OFLOW, t.line,
             std::string("integer constant ") + hex + " cannot be represented in any built-in integral type");
    }
    ExprPtr e = make_expr(ExprKind::IntLiteral, t.line);
    e->int_value = t.int_value;
    e->int_suffix = kSuffixes[first];
    e->int_from_octal_or_hex = !t.int_decimal;
    if (t.int_sign != 0)
        return make_unary(ExprKind::Unary, t.int_sign == '-' ? Op::Minus : Op::Plus, std::move(e), t.line);
    return e;
}

} // namespace dtrace::compiler
