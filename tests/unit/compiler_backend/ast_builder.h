// ast_builder.h: terse construction of D syntax trees for the back end's
// tests, so that semantic analysis and code generation can be tested on
// exactly the tree a construct parses to, independently of the parser.
#pragma once

#include "compiler/ast.h"

#include <string>
#include <utility>
#include <vector>

namespace astb {

using namespace dtrace::compiler;

template <typename... E> std::vector<ExprPtr> list(E &&...e) {
    std::vector<ExprPtr> v;
    (v.push_back(std::forward<E>(e)), ...);
    return v;
}

inline ExprPtr expr(ExprKind kind, int line = 1) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->line = line;
    return e;
}

inline ExprPtr num(uint64_t v, IntSuffix suffix = IntSuffix::None, bool hex = false) {
    auto e = expr(ExprKind::IntLiteral);
    e->int_value = v;
    e->int_suffix = suffix;
    e->int_from_octal_or_hex = hex;
    return e;
}

inline ExprPtr str(std::string s) {
    auto e = expr(ExprKind::StringLiteral);
    e->text = std::move(s);
    return e;
}

inline ExprPtr id(std::string name, int line = 1) {
    auto e = expr(ExprKind::Identifier, line);
    e->text = std::move(name);
    return e;
}

inline ExprPtr un(Op op, ExprPtr c) {
    auto e = expr(ExprKind::Unary);
    e->op = op;
    e->args = list(std::move(c));
    return e;
}

inline ExprPtr post(Op op, ExprPtr c) {
    auto e = expr(ExprKind::Postfix);
    e->op = op;
    e->args = list(std::move(c));
    return e;
}

inline ExprPtr bin(Op op, ExprPtr l, ExprPtr r, int line = 1) {
    auto e = expr(ExprKind::Binary, line);
    e->op = op;
    e->args = list(std::move(l), std::move(r));
    return e;
}

inline ExprPtr ternary(ExprPtr c, ExprPtr a, ExprPtr b) {
    auto e = expr(ExprKind::Ternary);
    e->args = list(std::move(c), std::move(a), std::move(b));
    return e;
}

inline ExprPtr call(std::string name, std::vector<ExprPtr> args = {}, int line = 1) {
    auto e = expr(ExprKind::Call, line);
    e->text = std::move(name);
    e->args = std::move(args);
    return e;
}

inline ExprPtr agg(std::string name, std::vector<ExprPtr> keys = {}) {
    auto e = expr(ExprKind::AggregationRef);
    e->text = std::move(name);
    e->args = std::move(keys);
    return e;
}

inline ExprPtr index(ExprPtr base, std::vector<ExprPtr> keys) {
    auto e = expr(ExprKind::Index);
    e->args.push_back(std::move(base));
    for (auto &k : keys)
        e->args.push_back(std::move(k));
    return e;
}

inline ExprPtr scoped(const char *scope, std::string name) {
    auto e = expr(ExprKind::Member);
    e->op = Op::Arrow;
    e->text = std::move(name);
    e->args = list(id(scope));
    return e;
}
inline ExprPtr self(std::string name) {
    return scoped("self", std::move(name));
}
inline ExprPtr thisv(std::string name) {
    return scoped("this", std::move(name));
}

inline std::unique_ptr<TypeName> type(std::vector<std::string> words, int pointers = 0) {
    auto t = std::make_unique<TypeName>();
    if (words.size() == 1 && (words[0] == "string" || words[0].find("_t") != std::string::npos)) {
        t->specifiers.type.kind = TypeSpecifier::Kind::TypedefName;
        t->specifiers.type.name = words[0];
    } else {
        t->specifiers.type.words = std::move(words);
    }
    for (int i = 0; i < pointers; i++)
        t->declarator.steps.push_back(DeclaratorStep{});
    return t;
}

inline ExprPtr cast(std::unique_ptr<TypeName> t, ExprPtr c) {
    auto e = expr(ExprKind::Cast);
    e->type_name = std::move(t);
    e->args = list(std::move(c));
    return e;
}

inline ExprPtr size_of(std::unique_ptr<TypeName> t) {
    auto e = expr(ExprKind::Sizeof);
    e->type_name = std::move(t);
    return e;
}

inline StmtPtr stmt(ExprPtr e) {
    auto s = std::make_unique<Stmt>();
    s->kind = Stmt::Kind::Expr;
    s->line = e->line;
    s->expr = std::move(e);
    return s;
}

template <typename... E> std::vector<StmtPtr> stmts(E &&...e) {
    std::vector<StmtPtr> v;
    (v.push_back(stmt(std::forward<E>(e))), ...);
    return v;
}

inline TopLevel clause(std::vector<StmtPtr> body, ExprPtr predicate = nullptr, std::string probe = "BEGIN",
                       int line = 1) {
    auto c = std::make_unique<ProbeClause>();
    ProbeSpecifier p;
    p.text = std::move(probe);
    p.line = line;
    c->probes.push_back(p);
    c->predicate = std::move(predicate);
    c->statements = std::move(body);
    c->has_body = true;
    c->line = line;
    TopLevel t{TopLevel::Kind::Clause};
    t.clause = std::move(c);
    return t;
}

template <typename... T> ProgramAst program(T &&...items) {
    ProgramAst p;
    (p.items.push_back(std::forward<T>(items)), ...);
    return p;
}

} // namespace astb
