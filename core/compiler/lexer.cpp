// lexer.cpp: the D lexer's dispatch: blanks and comments, keywords,
// identifiers (and the identifier-or-type decision), operators, and probe
// descriptions at the outer level. Literals and macro references are in
// lexer_literals.cpp, control lines in lexer_control.cpp.
//
// Each scanning function follows one rule of DTrace's dt_lex.l, including
// its longest-match choices and its error messages.
#include "compiler/lexer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>

namespace dtrace::compiler {

namespace {

struct Keyword {
    std::string_view name;
    Tok tok;
    bool outer; // also recognized at the outer level (DTrace's S2 state)
};

// DTrace's keyword rules. At the outer level only the keywords that can
// begin a declaration are words of their own; the rest are probe names.
constexpr std::array kKeywords = {
    Keyword{"auto", Tok::KwAuto, true},
    Keyword{"break", Tok::KwBreak, false},
    Keyword{"case", Tok::KwCase, false},
    Keyword{"char", Tok::KwChar, true},
    Keyword{"const", Tok::KwConst, true},
    Keyword{"continue", Tok::KwContinue, false},
    Keyword{"counter", Tok::KwCounter, true},
    Keyword{"default", Tok::KwDefault, false},
    Keyword{"do", Tok::KwDo, false},
    Keyword{"double", Tok::KwDouble, true},
    Keyword{"else", Tok::KwElse, false},
    Keyword{"enum", Tok::KwEnum, true},
    Keyword{"extern", Tok::KwExtern, true},
    Keyword{"float", Tok::KwFloat, true},
    Keyword{"for", Tok::KwFor, false},
    Keyword{"goto", Tok::KwGoto, false},
    Keyword{"if", Tok::KwIf, false},
    Keyword{"import", Tok::KwImport, true},
    Keyword{"inline", Tok::KwInline, true},
    Keyword{"int", Tok::KwInt, true},
    Keyword{"long", Tok::KwLong, true},
    Keyword{"offsetof", Tok::KwOffsetof, false},
    Keyword{"probe", Tok::KwProbe, false},
    Keyword{"provider", Tok::KwProvider, true},
    Keyword{"register", Tok::KwRegister, true},
    Keyword{"restrict", Tok::KwRestrict, true},
    Keyword{"return", Tok::KwReturn, false},
    Keyword{"self", Tok::KwSelf, true},
    Keyword{"short", Tok::KwShort, true},
    Keyword{"signed", Tok::KwSigned, true},
    Keyword{"sizeof", Tok::KwSizeof, false},
    Keyword{"static", Tok::KwStatic, true},
    Keyword{"string", Tok::KwString, true},
    Keyword{"stringof", Tok::KwStringof, false},
    Keyword{"struct", Tok::KwStruct, true},
    Keyword{"switch", Tok::KwSwitch, false},
    Keyword{"this", Tok::KwThis, true},
    Keyword{"translator", Tok::KwTranslator, true},
    Keyword{"typedef", Tok::KwTypedef, true},
    Keyword{"union", Tok::KwUnion, true},
    Keyword{"unsigned", Tok::KwUnsigned, true},
    Keyword{"userland", Tok::KwUserland, false},
    Keyword{"void", Tok::KwVoid, true},
    Keyword{"volatile", Tok::KwVolatile, true},
    Keyword{"while", Tok::KwWhile, false},
    Keyword{"xlate", Tok::KwXlate, false},
};

const Keyword *find_keyword(std::string_view word) {
    for (const Keyword &k : kKeywords) {
        if (word == k.name)
            return &k;
    }
    return nullptr;
}

// Keywords that are also names of types to DTrace's type lookup: at the
// outer level "int*x;" is read as the type int followed by "*x;".
bool is_type_keyword(Tok tok) {
    switch (tok) {
    case Tok::KwChar:
    case Tok::KwShort:
    case Tok::KwInt:
    case Tok::KwLong:
    case Tok::KwFloat:
    case Tok::KwDouble:
    case Tok::KwVoid:
    case Tok::KwString:
        return true;
    default:
        return false;
    }
}

struct Operator {
    std::string_view text;
    Tok tok;
};

// Longest first, so the first match is DTrace's longest match.
constexpr std::array kOperators = {
    Operator{"...", Tok::Ellipsis}, Operator{"<<=", Tok::ShlAssign}, Operator{">>=", Tok::ShrAssign},
    Operator{"->", Tok::Arrow},     Operator{"++", Tok::PlusPlus},   Operator{"--", Tok::MinusMinus},
    Operator{"&&", Tok::LogAnd},    Operator{"||", Tok::LogOr},      Operator{"^^", Tok::LogXor},
    Operator{"==", Tok::Eq},        Operator{"!=", Tok::Ne},         Operator{"<=", Tok::Le},
    Operator{">=", Tok::Ge},        Operator{"<<", Tok::Shl},        Operator{">>", Tok::Shr},
    Operator{"+=", Tok::AddAssign}, Operator{"-=", Tok::SubAssign},  Operator{"*=", Tok::MulAssign},
    Operator{"/=", Tok::DivAssign}, Operator{"%=", Tok::ModAssign},  Operator{"&=", Tok::AndAssign},
    Operator{"^=", Tok::XorAssign}, Operator{"|=", Tok::OrAssign},   Operator{"(", Tok::LParen},
    Operator{")", Tok::RParen},     Operator{"[", Tok::LBracket},    Operator{"]", Tok::RBracket},
    Operator{"{", Tok::LBrace},     Operator{"}", Tok::RBrace},      Operator{";", Tok::Semi},
    Operator{",", Tok::Comma},      Operator{"?", Tok::Question},    Operator{":", Tok::Colon},
    Operator{".", Tok::Dot},        Operator{"=", Tok::Assign},      Operator{"+", Tok::Plus},
    Operator{"-", Tok::Minus},      Operator{"*", Tok::Star},        Operator{"%", Tok::Percent},
    Operator{"&", Tok::BitAnd},     Operator{"|", Tok::BitOr},       Operator{"^", Tok::BitXor},
    Operator{"~", Tok::Tilde},      Operator{"!", Tok::Bang},        Operator{"<", Tok::Lt},
    Operator{">", Tok::Gt},
};

bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_ident_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '`';
}
bool is_ident_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '`';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// DTrace's RGX_PSPEC character classes.
bool is_pspec_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '$' || c == ':' || c == '.' ||
           c == '?' || c == '*' || c == '\\' || c == '[' || c == ']' || c == '!';
}
bool is_pspec_char(char c) {
    return is_pspec_start(c) || is_digit(c) || c == '`';
}

std::string char_text(char c) {
    return std::string(1, c);
}

} // namespace

Lexer::Lexer(std::string_view source, LexerConfig config, const TypeNameOracle &oracle)
    : src_(source.substr(0, source.find('\0'))), config_(std::move(config)), oracle_(oracle) {}

void Lexer::fail(Tag tag, int line, std::string message) const {
    Diagnostic d;
    d.tag = tag;
    d.line = line;
    d.file = file_;
    d.message = std::move(message);
    throw FrontEndError{std::move(d)};
}

void Lexer::syntax_error(const Token &near) const {
    std::string message = "syntax error";
    if (near.kind == Tok::End) {
        message += " near end of input";
    } else {
        // DTrace crops the token at a newline (a decoded '\n' in a character constant).
        std::string shown = near.text.substr(0, near.text.find('\n'));
        message += " near \"" + shown + "\"";
    }
    fail(Tag::D_SYNTAX, near.line, std::move(message));
}

Token Lexer::next() {
    Token t = mode_ == LexMode::Program ? scan_program_token() : scan_expr_token();
    ++tokens_returned_;
    return t;
}

Token Lexer::make(Tok kind, size_t start, int line) const {
    Token t;
    t.kind = kind;
    t.line = line;
    t.text = std::string(src_.substr(start, pos_ - start));
    return t;
}

// Skips blanks, comments, interpreter lines and control lines (which run
// as they end). Returns false at end of input.
bool Lexer::skip_blank_and_comments() {
    while (pos_ < src_.size()) {
        if (at_line_start(pos_) && skip_control_line())
            continue;
        char c = src_[pos_];
        if (is_blank(c)) {
            if (c == '\n')
                ++line_;
            ++pos_;
        } else if (c == '/' && at(pos_ + 1) == '*') {
            skip_comment();
        } else if (mode_ == LexMode::Expr && c == '\\' && at(pos_ + 1) == '\n') {
            pos_ += 2; // an escaped newline is blank inside clauses
            ++line_;
        } else {
            return true;
        }
    }
    return false;
}

void Lexer::skip_comment() {
    pos_ += 2;
    for (;;) {
        if (pos_ >= src_.size())
            fail(Tag::D_SYNTAX, line_, "end-of-file encountered before matching */");
        if (src_[pos_] == '/' && at(pos_ + 1) == '*')
            fail(Tag::D_SYNTAX, line_, "/* encountered inside a comment");
        if (src_[pos_] == '*' && at(pos_ + 1) == '/') {
            pos_ += 2;
            return;
        }
        if (src_[pos_] == '\n')
            ++line_;
        ++pos_;
    }
}

Token Lexer::scan_expr_token() {
    if (!skip_blank_and_comments())
        return make(Tok::End, pos_, line_);
    const size_t start = pos_;
    const int line = line_;
    const char c = src_[pos_];
    if (is_ident_start(c))
        return scan_identifier(start, line);
    if (is_digit(c) || (c == '.' && is_digit(at(pos_ + 1))))
        return scan_number(start, line, true);
    if (c == '"')
        return scan_string(start, line);
    if (c == '\'')
        return scan_char(start, line);
    if (c == '$')
        return scan_macro(start, line);
    if (c == '@') {
        ++pos_;
        if (std::isalpha(static_cast<unsigned char>(at(pos_))) || at(pos_) == '_') {
            while (std::isalnum(static_cast<unsigned char>(at(pos_))) || at(pos_) == '_')
                ++pos_;
            Token t = make(Tok::Agg, start, line);
            t.value = t.text.substr(1);
            return t;
        }
        Token t = make(Tok::Agg, start, line);
        t.value = "_"; // DTrace names the anonymous aggregation @_
        return t;
    }
    return scan_operator(start, line);
}

// An identifier: DTrace's RGX_IDENT, or a module-scoped name whose module
// part may contain dots (RGX_MOD_IDENT optionally followed by RGX_IDENT),
// whichever is longer. Keywords win ties.
Token Lexer::scan_identifier(size_t start, int line) {
    size_t ident_end = start + 1;
    while (is_ident_char(at(ident_end)))
        ++ident_end;
    size_t run_end = start + 1;
    while (is_ident_char(at(run_end)) || at(run_end) == '.')
        ++run_end;
    size_t scoped_end = start;
    for (size_t p = run_end; p > start; --p) {
        if (src_[p - 1] == '`') {
            scoped_end = p;
            if (is_ident_start(at(p))) {
                while (is_ident_char(at(scoped_end)))
                    ++scoped_end;
            }
            break;
        }
    }
    pos_ = std::max(ident_end, scoped_end);
    std::string text(src_.substr(start, pos_ - start));
    if (const Keyword *k = find_keyword(text))
        return make(k->tok, start, line);
    return classify_identifier(text, text, line);
}

// DTrace's id_or_type(): a name is a type name if it names a type, is not a
// variable already taken as such, and is not the name being declared. In a
// clause, a type name followed by ++, --, [ or = (not ==) is optimistically
// taken as a new variable, and stays one for the rest of the program.
Token Lexer::classify_identifier(std::string name, std::string text, int line) {
    Token t;
    t.kind = Tok::Ident;
    t.line = line;
    t.text = std::move(text);
    t.value = std::move(name);
    if (ambiguous_idents_.count(t.value) != 0 || !oracle_.is_type_name(t.value) || oracle_.declaration_has_type())
        return t;
    size_t p = pos_;
    while (is_blank(at(p)))
        ++p;
    const char c0 = at(p), c1 = at(p + 1);
    // DTrace reads ahead to decide, which moves its line counter to the next word.
    t.line = line_of_next_nonblank();
    if ((c0 == '+' && c1 == '+') || (c0 == '-' && c1 == '-') || (c0 == '=' && c1 != '=') || c0 == '[') {
        ambiguous_idents_.insert(t.value);
        return t;
    }
    t.kind = Tok::TypeName;
    return t;
}

int Lexer::line_of_next_nonblank() const {
    int line = line_;
    for (size_t p = pos_; is_blank(at(p)); ++p) {
        if (src_[p] == '\n')
            ++line;
    }
    return line;
}

Token Lexer::scan_operator(size_t start, int line) {
    const std::string_view rest = src_.substr(start);
    for (const Operator &op : kOperators) {
        const std::string_view text = op.text;
        if (text[0] != rest[0] || rest.substr(0, text.size()) != text)
            continue;
        pos_ = start + text.size();
        switch (op.tok) {
        case Tok::LParen:
            ++parens_;
            break;
        case Tok::RParen:
            if (--parens_ < 0)
                fail(Tag::D_SYNTAX, line_, "extra ) in input stream");
            break;
        case Tok::LBracket:
            ++brackets_;
            break;
        case Tok::RBracket:
            if (--brackets_ < 0)
                fail(Tag::D_SYNTAX, line_, "extra ] in input stream");
            break;
        case Tok::LBrace:
            ++braces_;
            break;
        case Tok::RBrace:
            if (--braces_ < 0)
                fail(Tag::D_SYNTAX, line_, "extra } in input stream");
            break;
        default:
            break;
        }
        return make(op.tok, start, line);
    }
    if (src_[start] == '/')
        return scan_slash(start);
    pos_ = start + 1;
    fail(Tag::D_SYNTAX, line_, "syntax error near \"" + char_text(src_[start]) + "\"");
}

// '/' divides, unless the next word is the end of input, ';', '{' or '/':
// then it closes a predicate (DTrace's lookahead; the line moves with it).
Token Lexer::scan_slash(size_t start) {
    pos_ = start + 1;
    size_t p = pos_;
    while (is_blank(at(p)))
        ++p;
    const char next = at(p);
    Token t = make(Tok::Slash, start, line_of_next_nonblank());
    if (next == '\0' || next == ';' || next == '{' || next == '/') {
        t.kind = Tok::EndPred;
        if (parens_ != 0)
            fail(Tag::D_SYNTAX, t.line, "closing ) expected in predicate before /");
        if (brackets_ != 0)
            fail(Tag::D_SYNTAX, t.line, "closing ] expected in predicate before /");
    }
    return t;
}

Token Lexer::scan_program_token() {
    if (!skip_blank_and_comments())
        return make(Tok::End, pos_, line_);
    const size_t start = pos_;
    const int line = line_;
    const char c = src_[pos_];
    if (is_digit(c))
        return scan_number(start, line, false);
    if (is_pspec_start(c))
        return scan_probe_spec(start, line);
    pos_ = start + 1;
    switch (c) {
    case '/':
        return make(Tok::Slash, start, line);
    case ',':
        return make(Tok::Comma, start, line);
    case '{':
        ++braces_;
        return make(Tok::LBrace, start, line);
    default:
        fail(Tag::D_SYNTAX, line_, "syntax error near \"" + char_text(c) + "\"");
    }
}

// A word at the outer level: a declaration keyword, a type name beginning a
// declaration (also "foo_t*x", read as foo_t then "*x"), or a probe
// description. Programs given on the command line (DTrace's C_PSPEC) take
// every word that is not a keyword as a probe description.
Token Lexer::scan_probe_spec(size_t start, int line) {
    size_t end = start + 1;
    while (is_pspec_char(at(end)))
        ++end;
    pos_ = end;
    const std::string text(src_.substr(start, end - start));
    if (const Keyword *k = find_keyword(text); k != nullptr && k->outer) {
        mode_ = LexMode::Expr;
        return make(k->tok, start, line);
    }
    if (!config_.probe_spec_words && text.find(':') == std::string::npos) {
        const size_t star = text.find('*');
        const std::string candidate = star != std::string::npos && star > 0 ? text.substr(0, star) : text;
        const Keyword *k = find_keyword(candidate);
        if ((k != nullptr && is_type_keyword(k->tok)) || (k == nullptr && oracle_.is_type_name(candidate))) {
            pos_ = start + candidate.size();
            mode_ = LexMode::Expr;
            Token t = make(k != nullptr ? k->tok : Tok::TypeName, start, line);
            t.value = candidate;
            return t;
        }
    }
    Token t = make(Tok::ProbeSpec, start, line);
    t.value = text;
    return t;
}

} // namespace dtrace::compiler
