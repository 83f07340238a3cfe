// Lexer: keywords, operators, identifiers, aggregations, comments, the
// predicate-closing '/', bracket counting, line numbers, identifier-or-type
// decisions and the outer-level (probe description) state.
#include "lexer_test_util.h"

#include <gtest/gtest.h>

namespace dtrace::compiler::test {
namespace {

struct Spelled {
    const char *text;
    Tok kind;
};

TEST(Lexer, EveryKeywordInClauses) {
    const Spelled keywords[] = {
        {"auto", Tok::KwAuto},
        {"break", Tok::KwBreak},
        {"case", Tok::KwCase},
        {"char", Tok::KwChar},
        {"const", Tok::KwConst},
        {"continue", Tok::KwContinue},
        {"counter", Tok::KwCounter},
        {"default", Tok::KwDefault},
        {"do", Tok::KwDo},
        {"double", Tok::KwDouble},
        {"else", Tok::KwElse},
        {"enum", Tok::KwEnum},
        {"extern", Tok::KwExtern},
        {"float", Tok::KwFloat},
        {"for", Tok::KwFor},
        {"goto", Tok::KwGoto},
        {"if", Tok::KwIf},
        {"import", Tok::KwImport},
        {"inline", Tok::KwInline},
        {"int", Tok::KwInt},
        {"long", Tok::KwLong},
        {"offsetof", Tok::KwOffsetof},
        {"probe", Tok::KwProbe},
        {"provider", Tok::KwProvider},
        {"register", Tok::KwRegister},
        {"restrict", Tok::KwRestrict},
        {"return", Tok::KwReturn},
        {"self", Tok::KwSelf},
        {"short", Tok::KwShort},
        {"signed", Tok::KwSigned},
        {"sizeof", Tok::KwSizeof},
        {"static", Tok::KwStatic},
        {"string", Tok::KwString},
        {"stringof", Tok::KwStringof},
        {"struct", Tok::KwStruct},
        {"switch", Tok::KwSwitch},
        {"this", Tok::KwThis},
        {"translator", Tok::KwTranslator},
        {"typedef", Tok::KwTypedef},
        {"union", Tok::KwUnion},
        {"unsigned", Tok::KwUnsigned},
        {"userland", Tok::KwUserland},
        {"void", Tok::KwVoid},
        {"volatile", Tok::KwVolatile},
        {"while", Tok::KwWhile},
        {"xlate", Tok::KwXlate},
    };
    for (const Spelled &k : keywords) {
        Token t = lex_one(k.text);
        EXPECT_EQ(t.kind, k.kind) << k.text;
        EXPECT_EQ(t.text, k.text);
    }
    // A keyword followed by identifier characters is an identifier.
    EXPECT_EQ(lex_one("integer").kind, Tok::Ident);
    EXPECT_EQ(lex_one("self_x").kind, Tok::Ident);
    EXPECT_EQ(lex_one("BEGIN").kind, Tok::Ident);
}

TEST(Lexer, EveryOperatorWithLongestMatch) {
    const Spelled ops[] = {
        {"(", Tok::LParen},     {")", Tok::RParen},      {"[", Tok::LBracket},    {"]", Tok::RBracket},
        {"{", Tok::LBrace},     {"}", Tok::RBrace},      {";", Tok::Semi},        {",", Tok::Comma},
        {"...", Tok::Ellipsis}, {"?", Tok::Question},    {":", Tok::Colon},       {".", Tok::Dot},
        {"->", Tok::Arrow},     {"=", Tok::Assign},      {"+=", Tok::AddAssign},  {"-=", Tok::SubAssign},
        {"*=", Tok::MulAssign}, {"/=", Tok::DivAssign},  {"%=", Tok::ModAssign},  {"&=", Tok::AndAssign},
        {"^=", Tok::XorAssign}, {"|=", Tok::OrAssign},   {"<<=", Tok::ShlAssign}, {">>=", Tok::ShrAssign},
        {"||", Tok::LogOr},     {"^^", Tok::LogXor},     {"&&", Tok::LogAnd},     {"|", Tok::BitOr},
        {"^", Tok::BitXor},     {"&", Tok::BitAnd},      {"==", Tok::Eq},         {"!=", Tok::Ne},
        {"<", Tok::Lt},         {"<=", Tok::Le},         {">", Tok::Gt},          {">=", Tok::Ge},
        {"<<", Tok::Shl},       {">>", Tok::Shr},        {"+", Tok::Plus},        {"-", Tok::Minus},
        {"*", Tok::Star},       {"%", Tok::Percent},     {"~", Tok::Tilde},       {"!", Tok::Bang},
        {"++", Tok::PlusPlus},  {"--", Tok::MinusMinus},
    };
    for (const Spelled &op : ops) {
        // Bracket tokens are checked in balanced pairs elsewhere.
        std::string src = op.text;
        if (op.kind == Tok::RParen || op.kind == Tok::RBracket || op.kind == Tok::RBrace)
            continue;
        Lexed l = lex_all(src);
        ASSERT_EQ(l.tokens.size(), 1u) << src;
        EXPECT_EQ(l.tokens[0].kind, op.kind) << src;
        EXPECT_EQ(l.tokens[0].text, src);
    }
    EXPECT_EQ(kinds(lex_all("( ) [ ] { }")),
              (std::vector<Tok>{Tok::LParen, Tok::RParen, Tok::LBracket, Tok::RBracket, Tok::LBrace, Tok::RBrace}));
    EXPECT_EQ(kinds(lex_all("a<<=b>>=c")),
              (std::vector<Tok>{Tok::Ident, Tok::ShlAssign, Tok::Ident, Tok::ShrAssign, Tok::Ident}));
    EXPECT_EQ(kinds(lex_all("a^^b^c")),
              (std::vector<Tok>{Tok::Ident, Tok::LogXor, Tok::Ident, Tok::BitXor, Tok::Ident}));
    EXPECT_EQ(kinds(lex_all("x+++y")), (std::vector<Tok>{Tok::Ident, Tok::PlusPlus, Tok::Plus, Tok::Ident}));
    EXPECT_EQ(kinds(lex_all("p->q-->r")),
              (std::vector<Tok>{Tok::Ident, Tok::Arrow, Tok::Ident, Tok::MinusMinus, Tok::Gt, Tok::Ident}));
    EXPECT_EQ(kinds(lex_all("..")), (std::vector<Tok>{Tok::Dot, Tok::Dot}));
}

TEST(Lexer, IdentifiersAndScopedNames) {
    Token t = lex_one("_foo9");
    EXPECT_EQ(t.kind, Tok::Ident);
    EXPECT_EQ(t.value, "_foo9");
    t = lex_one("genunix`kmem_flags");
    EXPECT_EQ(t.kind, Tok::Ident);
    EXPECT_EQ(t.value, "genunix`kmem_flags");
    EXPECT_EQ(lex_one("`kmem_flags").value, "`kmem_flags");
    EXPECT_EQ(lex_one("libc.so.1`errno").value, "libc.so.1`errno"); // dots allowed in the module part
    EXPECT_EQ(lex_one("mod``usym").value, "mod``usym");
    // Without a backquote a dot is the member operator.
    Lexed l = lex_all("a.b");
    EXPECT_EQ(kinds(l), (std::vector<Tok>{Tok::Ident, Tok::Dot, Tok::Ident}));
}

TEST(Lexer, Aggregations) {
    Token t = lex_one("@counts");
    EXPECT_EQ(t.kind, Tok::Agg);
    EXPECT_EQ(t.value, "counts");
    EXPECT_EQ(t.text, "@counts");
    t = lex_one("@");
    EXPECT_EQ(t.kind, Tok::Agg);
    EXPECT_EQ(t.value, "_");
    EXPECT_EQ(t.text, "@");
    EXPECT_EQ(kinds(lex_all("@[1]")), (std::vector<Tok>{Tok::Agg, Tok::LBracket, Tok::IntLit, Tok::RBracket}));
    EXPECT_EQ(lex_one("@_x1").value, "_x1");
}

TEST(Lexer, CommentsAreBlankAndCountLines) {
    Lexed l = lex_all("a /* one\n two\n */ b");
    ASSERT_EQ(l.tokens.size(), 2u);
    EXPECT_EQ(l.tokens[1].line, 3);
    EXPECT_EQ(lex_all("/*/ x */ y").tokens.size(), 1u);
    EXPECT_EQ(lex_all("/**/z").tokens[0].value, "z");
    EXPECT_EQ(lex_all("a /* b /* c */").error, "[D_SYNTAX] line 1: /* encountered inside a comment");
    EXPECT_EQ(lex_all("a\n/* b\n").error, "[D_SYNTAX] line 3: end-of-file encountered before matching */");
    // DTrace has no // comments: these are two slashes.
    EXPECT_EQ(kinds(lex_all("a // b")), (std::vector<Tok>{Tok::Ident, Tok::EndPred, Tok::Slash, Tok::Ident}));
}

TEST(Lexer, SlashClosesAPredicateBeforeEndSemicolonBraceOrSlash) {
    EXPECT_EQ(kinds(lex_all("a / b")), (std::vector<Tok>{Tok::Ident, Tok::Slash, Tok::Ident}));
    EXPECT_EQ(kinds(lex_all("a /")), (std::vector<Tok>{Tok::Ident, Tok::EndPred}));
    EXPECT_EQ(kinds(lex_all("a/ {")), (std::vector<Tok>{Tok::Ident, Tok::EndPred, Tok::LBrace}));
    EXPECT_EQ(kinds(lex_all("a /;")), (std::vector<Tok>{Tok::Ident, Tok::EndPred, Tok::Semi}));
    EXPECT_EQ(kinds(lex_all("a/ /b")), (std::vector<Tok>{Tok::Ident, Tok::EndPred, Tok::Slash, Tok::Ident}));
    // The look-ahead skips newlines, and the token's line moves with it.
    Lexed l = lex_all("a /\n\n{");
    ASSERT_EQ(l.tokens.size(), 3u);
    EXPECT_EQ(l.tokens[1].kind, Tok::EndPred);
    EXPECT_EQ(l.tokens[1].line, 3);
    EXPECT_EQ(lex_all("(a /").error, "[D_SYNTAX] line 1: closing ) expected in predicate before /");
    EXPECT_EQ(lex_all("a[1 /\n{").error, "[D_SYNTAX] line 2: closing ] expected in predicate before /");
    EXPECT_EQ(lex_all("(a / 2)").error, "");
}

TEST(Lexer, UnbalancedClosersAreReported) {
    EXPECT_EQ(lex_all("a)").error, "[D_SYNTAX] line 1: extra ) in input stream");
    EXPECT_EQ(lex_all("\n]").error, "[D_SYNTAX] line 2: extra ] in input stream");
    EXPECT_EQ(lex_all("{ } }").error, "[D_SYNTAX] line 1: extra } in input stream");
    EXPECT_EQ(lex_all("(()())").error, "");
}

TEST(Lexer, InvalidCharacters) {
    EXPECT_EQ(lex_all("a # b").error, "[D_SYNTAX] line 1: syntax error near \"#\"");
    EXPECT_EQ(lex_all("x\n\\ y").error, "[D_SYNTAX] line 2: syntax error near \"\\\"");
    EXPECT_EQ(lex_all("$").error, "[D_SYNTAX] line 1: syntax error near \"$\"");
    EXPECT_EQ(lex_all("$$ ").error, "[D_SYNTAX] line 1: syntax error near \"$\"");
    EXPECT_EQ(lex_all("a\x01").error, "[D_SYNTAX] line 1: syntax error near \"\x01\"");
}

TEST(Lexer, LinesOfTokens) {
    Lexed l = lex_all("a\nb\r\n\n  c\td");
    ASSERT_EQ(l.tokens.size(), 4u);
    EXPECT_EQ(l.tokens[0].line, 1);
    EXPECT_EQ(l.tokens[1].line, 2);
    EXPECT_EQ(l.tokens[2].line, 4);
    EXPECT_EQ(l.tokens[3].line, 4);
    // In clauses an escaped newline is blank.
    l = lex_all("a \\\n b");
    ASSERT_EQ(l.tokens.size(), 2u);
    EXPECT_EQ(l.tokens[1].line, 2);
}

TEST(Lexer, NulEndsTheInput) {
    Lexed l = lex_all(std::string_view("a\0b", 3));
    ASSERT_EQ(l.tokens.size(), 1u);
    EXPECT_EQ(l.tokens[0].value, "a");
}

TEST(Lexer, TypeNamesAndTheAssignmentHeuristic) {
    FakeOracle types;
    types.types = {"foo_t"};
    auto first = [&](const char *src) { return lex_all(src, LexMode::Expr, {}, types).tokens.at(0).kind; };
    EXPECT_EQ(first("foo_t)"), Tok::TypeName);
    EXPECT_EQ(first("foo_t == 1"), Tok::TypeName);
    EXPECT_EQ(first("foo_t += 1"), Tok::TypeName);
    EXPECT_EQ(first("foo_t = 1"), Tok::Ident);
    EXPECT_EQ(first("foo_t[1]"), Tok::Ident);
    EXPECT_EQ(first("foo_t ++"), Tok::Ident);
    EXPECT_EQ(first("foo_t\n--"), Tok::Ident);
    EXPECT_EQ(first("bar_t)"), Tok::Ident);
    // Once taken as a variable, the name stays one.
    Lexed l = lex_all("foo_t = 1; (foo_t)", LexMode::Expr, {}, types);
    ASSERT_EQ(l.tokens.size(), 7u);
    EXPECT_EQ(l.tokens[5].kind, Tok::Ident);
    // The name a declaration declares is never a type name.
    types.has_type = true;
    EXPECT_EQ(first("foo_t)"), Tok::Ident);
    // A macro argument naming a type goes through the same decision.
    types.has_type = false;
    LexerConfig c;
    c.macro_args = {"s", "foo_t"};
    l = lex_all("$1)", LexMode::Expr, c, types);
    ASSERT_FALSE(l.tokens.empty());
    EXPECT_EQ(l.tokens[0].kind, Tok::TypeName);
    EXPECT_EQ(l.tokens[0].value, "foo_t");
    EXPECT_EQ(l.tokens[0].text, "$1");
}

TEST(Lexer, TypeNameLineFollowsDTraceLookAhead) {
    FakeOracle types;
    types.types = {"foo_t"};
    Lexed l = lex_all("(foo_t\n\n)", LexMode::Expr, {}, types);
    ASSERT_EQ(l.tokens.size(), 3u);
    EXPECT_EQ(l.tokens[1].kind, Tok::TypeName);
    EXPECT_EQ(l.tokens[1].line, 3);
    l = lex_all("(bar\n)", LexMode::Expr, {}, types);
    ASSERT_EQ(l.tokens.size(), 3u);
    EXPECT_EQ(l.tokens[1].line, 1);
}

TEST(Lexer, OuterLevelWordsAreProbeDescriptions) {
    auto outer = [](const char *src, LexerConfig c = {}, const FakeOracle &o = FakeOracle{}) {
        return lex_all(src, LexMode::Program, std::move(c), o);
    };
    Lexed l = outer("syscall::read:entry");
    ASSERT_EQ(l.tokens.size(), 1u);
    EXPECT_EQ(l.tokens[0].kind, Tok::ProbeSpec);
    EXPECT_EQ(l.tokens[0].value, "syscall::read:entry");
    for (const char *spec : {"profile-97", "fbt:mod:func*:entry", "syscall::open*:", ":::", "fbt::[a-c]?x:return",
                             "pid$target:::entry", "syscall::$1:entry", "a.b-c!d\\e", "BEGIN"}) {
        l = outer(spec);
        ASSERT_EQ(l.tokens.size(), 1u) << spec;
        EXPECT_EQ(l.tokens[0].kind, Tok::ProbeSpec) << spec;
        EXPECT_EQ(l.tokens[0].value, spec);
    }
    EXPECT_EQ(kinds(outer("BEGIN,END")), (std::vector<Tok>{Tok::ProbeSpec, Tok::Comma, Tok::ProbeSpec}));
    EXPECT_EQ(kinds(outer("a:b:c:d /")), (std::vector<Tok>{Tok::ProbeSpec, Tok::Slash}));
    EXPECT_EQ(kinds(outer("BEGIN{")), (std::vector<Tok>{Tok::ProbeSpec, Tok::LBrace}));
    // Numbers are probe ids; keywords that do not begin declarations are names.
    EXPECT_EQ(kinds(outer("123")), (std::vector<Tok>{Tok::IntLit}));
    EXPECT_EQ(kinds(outer("while")), (std::vector<Tok>{Tok::ProbeSpec}));
    EXPECT_EQ(kinds(outer("userland")), (std::vector<Tok>{Tok::ProbeSpec}));
    EXPECT_EQ(outer(";").error, "[D_SYNTAX] line 1: syntax error near \";\"");
    EXPECT_EQ(outer("BEGIN\n}").error, "[D_SYNTAX] line 2: syntax error near \"}\"");
    EXPECT_EQ(outer("\"s\"").error, "[D_SYNTAX] line 1: syntax error near \"\"\"");
}

TEST(Lexer, OuterLevelDeclarationsSwitchToClauseTokens) {
    // A declaration keyword switches the lexer to clause tokens.
    Lexed l = lex_all("int x:y", LexMode::Program);
    EXPECT_EQ(kinds(l), (std::vector<Tok>{Tok::KwInt, Tok::Ident, Tok::Colon, Tok::Ident}));
    // "int*" is the type int then '*'.
    l = lex_all("int*x", LexMode::Program);
    EXPECT_EQ(kinds(l), (std::vector<Tok>{Tok::KwInt, Tok::Star, Tok::Ident}));
    // So is a known type name; with a ':' the word is a probe description.
    FakeOracle types;
    types.types = {"foo_t"};
    l = lex_all("foo_t*p", LexMode::Program, {}, types);
    EXPECT_EQ(kinds(l), (std::vector<Tok>{Tok::TypeName, Tok::Star, Tok::Ident}));
    EXPECT_EQ(l.tokens[0].value, "foo_t");
    l = lex_all("foo_t:::", LexMode::Program, {}, types);
    EXPECT_EQ(kinds(l), (std::vector<Tok>{Tok::ProbeSpec}));
    // Command-line programs take every such word as a probe description.
    LexerConfig pspec;
    pspec.probe_spec_words = true;
    l = lex_all("foo_t*p", LexMode::Program, pspec, types);
    EXPECT_EQ(kinds(l), (std::vector<Tok>{Tok::ProbeSpec}));
    l = lex_all("int x", LexMode::Program, pspec, types);
    EXPECT_EQ(kinds(l), (std::vector<Tok>{Tok::KwInt, Tok::Ident}));
}

} // namespace
} // namespace dtrace::compiler::test
