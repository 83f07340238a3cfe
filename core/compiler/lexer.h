// lexer.h: the D lexer, a hand-written equivalent of DTrace's dt_lex.l.
//
// DTrace lexes in two main states and the parser switches between them:
//  - Program (DTrace's S2), at the outer level of a program: words are probe
//    descriptions ("syscall::read:entry", "profile-97", "fbt::*:entry"),
//    numbers are probe ids, and only the keywords that can begin a
//    declaration are recognized. Reading one of those keywords, or a word
//    that names a type, switches the lexer to Expr by itself.
//  - Expr (DTrace's S0), inside predicates, actions and declarations: the C
//    tokens plus D's (@aggregations, `scoped identifiers, $macro references,
//    ^^ ...).
// Comments and control lines (#pragma, #line, # N "file", #error...) are
// handled in both states; a control line is processed when its newline is
// read, exactly when DTrace does it, which matters because it can change the
// line numbers and stop compilation.
//
// Like DTrace, the lexer decides whether an identifier names a type (a
// TypeName token) or not (Ident): the parser answers the questions this
// needs through TypeNameOracle. Errors are thrown as FrontEndError and end
// the parse.
#pragma once

#include "compiler/ast.h"
#include "compiler/diagnostic.h"
#include "compiler/token.h"

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::compiler {

// A compile error raised inside the front end; parse_program() returns it.
struct FrontEndError {
    Diagnostic diag;
};

enum class LexMode : uint8_t { Program, Expr };

// What the lexer asks the parser about names.
class TypeNameOracle {
  public:
    virtual ~TypeNameOracle() = default;
    // The name is a type known at this point of the program.
    virtual bool is_type_name(std::string_view name) const = 0;
    // A declaration is being read whose specifiers already name its type,
    // so the next identifier is the declared name (`typedef int foo; foo foo;`).
    virtual bool declaration_has_type() const = 0;
};

struct LexerConfig {
    std::vector<std::string> macro_args;           // $0, $1, ...
    std::map<std::string, std::string> macro_vars; // $pid, $target, ...
    bool default_args = false;                     // unset $n reads as 0 / ""
    // Outer-level words are always probe descriptions (DTrace's
    // DTRACE_C_PSPEC, set for command-line programs).
    bool probe_spec_words = false;
    // Sets a #pragma D option as it is read (ParseOptions::set_option).
    std::function<std::optional<std::string>(const std::string &, const std::optional<std::string> &)> set_option;
};

// A pragma the lexer read, with the number of tokens it had returned before
// it (so the parser can put it in program order).
struct LexedPragma {
    Pragma pragma;
    size_t tokens_before = 0;
};

class Lexer {
  public:
    Lexer(std::string_view source, LexerConfig config, const TypeNameOracle &oracle);

    Token next();
    void set_mode(LexMode mode) { mode_ = mode; }

    // Throws the error DTrace reports at `line` (naming the #line file if any).
    [[noreturn]] void fail(Tag tag, int line, std::string message) const;
    // "syntax error near ..." for a token DTrace's grammar rejects.
    [[noreturn]] void syntax_error(const Token &near) const;

    const std::string &file_tag() const { return file_; }
    std::vector<LexedPragma> &pragmas() { return pragmas_; }
    // Indices of the macro arguments ($n, $$n) the program referenced.
    const std::set<int> &referenced_args() const { return referenced_args_; }
    void mark_referenced(int index) { referenced_args_.insert(index); }

  private:
    // lexer.cpp: dispatch, whitespace, comments, operators, identifiers.
    Token scan_expr_token();
    Token scan_program_token();
    bool skip_blank_and_comments();
    void skip_comment();
    Token make(Tok kind, size_t start, int line) const;
    Token scan_identifier(size_t start, int line);
    Token classify_identifier(std::string name, std::string text, int line);
    Token scan_operator(size_t start, int line);
    Token scan_slash(size_t start);
    Token scan_probe_spec(size_t start, int line);
    int line_of_next_nonblank() const;
    char at(size_t pos) const { return pos < src_.size() ? src_[pos] : '\0'; }

    // lexer_literals.cpp: numbers, strings, characters, macro references.
    Token scan_number(size_t start, int line, bool allow_float);
    Token integer_token(std::string_view text, int line);
    Token scan_string(size_t start, int line);
    Token scan_char(size_t start, int line);
    Token scan_macro(size_t start, int line);
    Token macro_argument(std::string_view text, int index, bool as_string, int line);
    Token macro_variable(std::string_view text, std::string_view name, bool as_string, int line);
    size_t quoted_body_end(size_t pos, char quote) const;
    std::string string_value(size_t body_start, size_t body_end) const;

    // lexer_control.cpp: control lines (# directives) and pragmas.
    bool at_line_start(size_t pos) const;
    bool skip_control_line();
    void run_directive(const std::vector<Token> &words, int directive_line);
    void directive_line(const char *name, const std::vector<Token> &args, size_t first);
    void pragma_directive(const std::string &name, const std::vector<Token> &args, size_t first, int line);
    void set_pragma_option(const std::string &arg);

    std::string_view src_;
    size_t pos_ = 0;
    int line_ = 1;
    std::string file_;
    LexMode mode_ = LexMode::Program;
    LexerConfig config_;
    const TypeNameOracle &oracle_;
    // DTrace's pcb_parens, pcb_brackets, pcb_braces.
    int parens_ = 0, brackets_ = 0, braces_ = 0;
    // Identifiers that looked like types but were taken as variables
    // (DTrace's pcb_idents): they stay variables for the rest of the program.
    std::set<std::string, std::less<>> ambiguous_idents_;
    std::set<int> referenced_args_;
    std::vector<LexedPragma> pragmas_;
    size_t tokens_returned_ = 0;
};

// C escape sequences decoded as DTrace's stresc2chr does: \a \b \f \n \r \t
// \v, up to three octal digits, \x followed by any number of hex digits,
// \" and \\; any other escaped character keeps its backslash.
std::string decode_escapes(std::string_view s);

// The length of DTrace's integer-constant pattern (RGX_INT) at the start of s.
size_t integer_constant_length(std::string_view s);

// Whether a macro argument reads as an integer or identifier (DTrace's
// strbadidnum() returning NULL) rather than as a string.
bool is_ident_or_integer(std::string_view s);

} // namespace dtrace::compiler
