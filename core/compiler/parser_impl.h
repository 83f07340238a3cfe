// parser_impl.h: the recursive-descent parser behind parse_program().
//
// The parser follows DTrace's yacc grammar (dt_grammar.y) rule for rule, so
// that it accepts the same programs and rejects the others at the same
// token: every function consumes exactly the tokens its rule can continue
// with and reports "syntax error near" the first token that cannot. It
// looks at one token ahead, and only where yacc needs that look-ahead too:
// the lexer's state (outer level or clause) and its identifier-or-type
// decisions depend on what has been parsed, so lexing a token early would
// lex it wrongly. For the same reason node lines follow DTrace: an operator
// node gets the line of the look-ahead token that ended it.
//
// The implementation is split by grammar area:
//   parser.cpp         program, clauses, statements, pragmas in program order
//   parser_probe.cpp   probe descriptions (fields, macro variables, ids)
//   parser_expr.cpp    expressions
//   parser_decl.cpp    declarations, declarators, type names, inline,
//                      translator and provider definitions
//   parser_specs.cpp   declaration specifiers and DTrace's checks on them
#pragma once

#include "compiler/ast.h"
#include "compiler/lexer.h"
#include "compiler/parser.h"

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::compiler {

bool starts_type_name(Tok kind);

class Parser final : public TypeNameOracle {
  public:
    Parser(std::string_view source, const ParseOptions &opts);

    ProgramAst parse(); // throws FrontEndError
    const std::set<int> &referenced_args() const { return lexer_.referenced_args(); }

    bool is_type_name(std::string_view name) const override;
    bool declaration_has_type() const override;

  private:
    // What DTrace's declaration stack records while a declaration is read.
    struct DeclScope {
        bool has_type = false;          // a specifier named the type (dd_name)
        std::optional<Token> spec_name; // a second type name taken as the declared name (ds_ident)
    };
    // A fresh declaration scope for the lifetime of the guard.
    class ScopeGuard {
      public:
        explicit ScopeGuard(Parser &p) : p_(p) { p_.scopes_.emplace_back(); }
        ~ScopeGuard() { p_.scopes_.pop_back(); }
        ScopeGuard(const ScopeGuard &) = delete;
        ScopeGuard &operator=(const ScopeGuard &) = delete;

      private:
        Parser &p_;
    };
    // Bounds the depth of the parse, and so of the tree it builds, on nested
    // input: each nested construct, and each link of a left-associative
    // chain (a + b + c, a, b, c, a[1][2], a->b->c), counts one level.
    class DepthGuard {
      public:
        // `levels` is 1 for a nested construct, 0 for a chain yet to grow.
        explicit DepthGuard(Parser &p, int levels = 1) : p_(p) {
            for (int i = 0; i < levels; ++i)
                deeper();
        }
        ~DepthGuard() { p_.depth_ -= levels_; }
        DepthGuard(const DepthGuard &) = delete;
        DepthGuard &operator=(const DepthGuard &) = delete;
        void deeper();

      private:
        Parser &p_;
        int levels_ = 0;
    };

    // What a declaration's specifiers have said so far, for DTrace's checks
    // (dt_decl_spec, dt_decl_attr, dt_decl_check).
    struct SpecState {
        enum class Kind : uint8_t { Unknown, Integer, Float, Typedef, Struct, Union, Enum };
        Kind kind = Kind::Unknown;
        std::string name;     // void, char, int, float, double, string or a type name
        bool started = false; // any specifier but a storage class seen (DTrace has a decl)
        bool is_short = false, is_long = false, is_long_long = false, is_signed = false, is_unsigned = false;
    };
    enum class SpecContext : uint8_t {
        Declaration, // storage classes including D's self and this
        Parameter,   // storage classes, but not self or this first
        TypeName,    // specifiers and qualifiers only (type names, members)
    };
    enum class DeclaratorKind : uint8_t { Named, Abstract, Either };

    // Token stream (parser.cpp).
    const Token &cur();
    Token take();
    bool at(Tok kind) { return cur().kind == kind; }
    Token expect(Tok kind);
    [[noreturn]] void syntax_error();
    [[noreturn]] void fail(Tag tag, int line, std::string message) const;
    void check_translation_unit(const ProgramAst &prog, int end_line) const;
    [[noreturn]] void nesting_too_deep();

    // Program structure (parser.cpp).
    void parse_external_declaration(ProgramAst &prog);
    void append(ProgramAst &prog, TopLevel item);
    void flush_pragmas(ProgramAst &prog, size_t before_token);
    void parse_clause(ProgramAst &prog);
    std::vector<StmtPtr> parse_statement_list();
    StmtPtr parse_statement_or_block();
    StmtPtr parse_if();
    static StmtPtr make_stmt(Stmt::Kind kind, int line);

    // Probe descriptions (parser_probe.cpp).
    ProbeSpecifier probe_specifier(const Token &t);

    // Expressions (parser_expr.cpp).
    ExprPtr parse_expression();
    ExprPtr parse_assignment();
    ExprPtr parse_constant_expression();
    ExprPtr parse_conditional(bool &is_unary);
    ExprPtr parse_binary(int min_precedence, bool &is_unary);
    ExprPtr parse_cast(bool &is_unary);
    ExprPtr parse_unary();
    ExprPtr parse_postfix_tail(ExprPtr e);
    ExprPtr parse_primary();
    std::vector<ExprPtr> parse_arguments();
    ExprPtr make_call(ExprPtr callee, std::vector<ExprPtr> args, int rparen_line);
    ExprPtr int_literal(const Token &t) const;

    // Declarations (parser_decl.cpp).
    void parse_declaration(ProgramAst &prog);
    void parse_inline(ProgramAst &prog);
    void parse_translator(ProgramAst &prog);
    void parse_provider(ProgramAst &prog);
    Declarator parse_declarator(DeclaratorKind kind);
    DeclaratorStep parse_array_suffix();
    DeclaratorStep parse_function_suffix();
    void parse_parameter_list(std::vector<std::unique_ptr<Parameter>> &params, bool &varargs);
    // DTrace's checks of a function or associative array prototype
    // (dt_decl_prototype): the D_DECL_PROTO_* errors.
    enum class PrototypeOf : uint8_t { Function, Array };
    void check_prototype(const std::vector<std::unique_ptr<Parameter>> &params, bool varargs, PrototypeOf of,
                         int end_line) const;
    std::unique_ptr<Parameter> parse_parameter();
    std::unique_ptr<TypeName> parse_type_name();
    void declarator_name(Declarator &d, const Token &name);

    // Declaration specifiers (parser_specs.cpp).
    DeclSpecifiers parse_specifiers(SpecContext context);
    bool starts_specifier(Tok kind, SpecContext context, bool first) const;
    TypeSpecifier parse_struct_or_union(SpecState &state);
    TypeSpecifier parse_enum(SpecState &state);
    void parse_member_declaration(TypeSpecifier &sou);
    void spec_named(SpecState &state, SpecState::Kind kind, const std::string &name, int line);
    void spec_attribute(SpecState &state, Tok keyword, int line);
    void spec_check(const SpecState &state, int line) const;

    const ParseOptions &opts_;
    Lexer lexer_;
    Token cur_;
    bool have_cur_ = false;
    size_t consumed_ = 0;       // tokens taken so far
    size_t pragmas_placed_ = 0; // lexer pragmas already in the program
    int last_line_ = 1;         // line of the last token taken
    int depth_ = 0;
    std::vector<DeclScope> scopes_;
    std::set<std::string, std::less<>> typedefs_;
};

} // namespace dtrace::compiler
