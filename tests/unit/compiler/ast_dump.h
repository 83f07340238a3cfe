// ast_dump.h: compact text forms of the parser's trees, so that tests can
// state the expected tree in one readable string.
//
// Expressions print as S-expressions: "(+ a (* b c))", "(= x 1)",
// "(call trace x)", "([] a k1 k2)", "(-> self x)", "(? c a b)",
// "(cast TYPE e)", "(sizeof TYPE)"; integers print their value with the
// suffix as written (42, 42ul) and a leading '#' when written in octal or
// hex; characters as "char:N"; strings quoted with C escapes.
// Types print from the declared name outwards, like the declarator steps:
// "a: [4] * int" for int *a[4], "fp: * (int, * char) int" for a pointer to
// a function.
#pragma once

#include "compiler/ast.h"
#include "compiler/parser.h"

#include <optional>
#include <string>
#include <string_view>

namespace dtrace::compiler::test {

std::string dump(const Expr &e);
std::string dump(const TypeName &t);
std::string dump(const DeclSpecifiers &s, const Declarator &d);
std::string dump(const Declaration &d);
std::string dump(const Stmt &s);

// Parses `source` (a script, from_file unless said otherwise) and returns
// the tree or the formatted error ("[TAG] line N: message").
struct Parsed {
    std::optional<ProgramAst> program;
    std::string error; // empty on success
};
ParseOptions script_options();
Parsed parse(std::string_view source, ParseOptions opts = script_options());

// The expression of the single statement of `BEGIN { <expr>; }`, dumped,
// or the error.
std::string expr(std::string_view expression, const std::string &prelude = "");

// The first clause of a parsed program (which must have one).
const ProbeClause &first_clause(const ProgramAst &p);

} // namespace dtrace::compiler::test
