// lexer_test_util.h: runs the lexer alone over a string, with a stand-in
// for the parser's answers about type names.
#pragma once

#include "compiler/lexer.h"

#include <set>
#include <string>
#include <vector>

namespace dtrace::compiler::test {

class FakeOracle : public TypeNameOracle {
  public:
    std::set<std::string, std::less<>> types;
    bool has_type = false;
    bool is_type_name(std::string_view name) const override { return types.count(name) != 0; }
    bool declaration_has_type() const override { return has_type; }
};

struct Lexed {
    std::vector<Token> tokens; // up to, not including, End
    std::string error;         // "[TAG] line N: message" if lexing failed
};

inline Lexed lex_all(std::string_view src, LexMode mode = LexMode::Expr, LexerConfig config = {},
                     const FakeOracle &oracle = FakeOracle{}) {
    Lexed out;
    Lexer lexer(src, std::move(config), oracle);
    lexer.set_mode(mode);
    try {
        for (Token t = lexer.next(); t.kind != Tok::End; t = lexer.next())
            out.tokens.push_back(std::move(t));
    } catch (const FrontEndError &e) {
        out.error = format_diagnostic(e.diag, true);
    }
    return out;
}

// The single token of `src` (lexed in clause mode), or a default token.
inline Token lex_one(std::string_view src, LexerConfig config = {}) {
    Lexed l = lex_all(src, LexMode::Expr, std::move(config));
    return l.tokens.size() == 1 && l.error.empty() ? l.tokens[0] : Token{};
}

inline std::vector<Tok> kinds(const Lexed &l) {
    std::vector<Tok> out;
    for (const Token &t : l.tokens)
        out.push_back(t.kind);
    return out;
}

} // namespace dtrace::compiler::test
