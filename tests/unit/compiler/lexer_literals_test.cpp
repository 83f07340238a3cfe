// Lexer: integer, character and string constants, escape sequences and
// macro references.
#include "lexer_test_util.h"

#include <gtest/gtest.h>

namespace dtrace::compiler::test {
namespace {

TEST(LexerIntegers, ValuesBasesAndSuffixes) {
    struct Case {
        const char *text;
        uint64_t value;
        const char *suffix;
        bool decimal;
    };
    const Case cases[] = {
        {"0", 0, "", false},
        {"42", 42, "", true},
        {"0777", 0777, "", false},
        {"0x1F", 0x1f, "", false},
        {"0XfF", 0xff, "", false},
        {"10u", 10, "u", true},
        {"10U", 10, "U", true},
        {"10l", 10, "l", true},
        {"10L", 10, "L", true},
        {"10ul", 10, "ul", true},
        {"10UL", 10, "UL", true},
        {"10uL", 10, "uL", true},
        {"10ll", 10, "ll", true},
        {"10LL", 10, "LL", true},
        {"10lL", 10, "lL", true},
        {"10ull", 10, "ull", true},
        {"10ULL", 10, "ULL", true},
        {"0x10ull", 16, "ull", false},
        {"18446744073709551615", UINT64_MAX, "", true},
        {"0xffffffffffffffff", UINT64_MAX, "", false},
    };
    for (const Case &c : cases) {
        Token t = lex_one(c.text);
        EXPECT_EQ(t.kind, Tok::IntLit) << c.text;
        EXPECT_EQ(t.int_value, c.value) << c.text;
        EXPECT_EQ(t.int_suffix, c.suffix) << c.text;
        EXPECT_EQ(t.int_decimal, c.decimal) << c.text;
        EXPECT_EQ(t.text, c.text);
    }
    // The suffix is u, then up to two l's: "lu" is 1l followed by u.
    EXPECT_EQ(kinds(lex_all("1lu")), (std::vector<Tok>{Tok::IntLit, Tok::Ident}));
    EXPECT_EQ(kinds(lex_all("0x")), (std::vector<Tok>{Tok::IntLit, Tok::Ident}));
}

TEST(LexerIntegers, Errors) {
    EXPECT_EQ(lex_all("18446744073709551616").error,
              "[D_INT_OFLOW] line 1: constant 18446744073709551616 results in integer overflow");
    EXPECT_EQ(lex_all("\n0x10000000000000000UL").error,
              "[D_INT_OFLOW] line 2: constant 0x10000000000000000UL results in integer overflow");
    EXPECT_EQ(lex_all("08").error, "[D_INT_DIGIT] line 1: constant 08 contains invalid digit 8");
    EXPECT_EQ(lex_all("0779u").error, "[D_INT_DIGIT] line 1: constant 0779u contains invalid digit 9");
    for (const char *fp : {"1.5", "1.", ".5", "1e5", "1E-5", "2.5e+3", "1f", "3.0L"})
        EXPECT_EQ(lex_all(fp).error, "[D_SYNTAX] line 1: floating-point constants are not permitted") << fp;
    // Integer suffixes win over the floating-point pattern when as long.
    EXPECT_EQ(lex_all("1L").error, "");
    EXPECT_EQ(kinds(lex_all("1e")), (std::vector<Tok>{Tok::IntLit, Tok::Ident}));
}

TEST(LexerCharacters, Values) {
    struct Case {
        const char *text;
        uint64_t value;
    };
    const Case cases[] = {
        {"'a'", 'a'},
        {"'ab'", 0x6162},
        {"'\\n'", '\n'},
        {"'\\0'", 0},
        {"'\\377'", 0xff},
        {"'\\x41'", 0x41},
        {"'\\''", 0x5c27},
        {"'\"'", '"'},
        {"'\\\\'", '\\'},
        {"'\\q'", 0x5c71},
        {"'abcdefgh'", 0x6162636465666768},
        {"'\\1234'", 0x5334},
        {"'\\x'", 0},
        {"'\\a\\b\\f\\r\\t\\v'", 0x07080c0d090b},
    };
    for (const Case &c : cases) {
        Token t = lex_one(c.text);
        EXPECT_EQ(t.kind, Tok::IntLit) << c.text;
        EXPECT_TRUE(t.is_char_constant) << c.text;
        EXPECT_EQ(t.int_value, c.value) << c.text;
        EXPECT_EQ(t.value, c.text);
    }
    // DTrace's messages show the opening quote and the decoded characters.
    EXPECT_EQ(lex_one("'ab'").text, "'ab");
}

TEST(LexerCharacters, Errors) {
    EXPECT_EQ(lex_all("''").error, "[D_CHR_NULL] line 1: empty character constant");
    EXPECT_EQ(lex_all("'abcdefghi'").error, "[D_CHR_OFLOW] line 1: character constant is too long");
    EXPECT_EQ(lex_all("x\n'ab\n'").error, "[D_CHR_NL] line 2: newline encountered in character constant");
    EXPECT_EQ(lex_all("'a").error, "[D_SYNTAX] line 1: syntax error near \"'\"");
}

TEST(LexerStrings, EscapesAreDecoded) {
    struct Case {
        const char *text;
        const char *value;
    };
    const Case cases[] = {
        {R"("plain")", "plain"},
        {R"("\a\b\f\n\r\t\v")", "\a\b\f\n\r\t\v"},
        {R"("\"\\")", "\"\\"},
        {R"("\101\60\0601")", "A001"},
        {R"("\x41\x4a\x4Bz")", "AJKz"},
        {R"("\q\'\?")", "\\q\\'\\?"}, // unknown escapes keep their backslash
        {R"("a\0b")", "a"},           // a decoded NUL ends the string
        {R"("\777")", "\xff"},        // octal wraps to a byte
        {R"("")", ""},
    };
    for (const Case &c : cases) {
        Token t = lex_one(c.text);
        EXPECT_EQ(t.kind, Tok::StringLit) << c.text;
        EXPECT_EQ(t.value, c.value) << c.text;
        EXPECT_EQ(t.text, c.text);
    }
}

TEST(LexerStrings, Errors) {
    EXPECT_EQ(lex_all("\"abc\ndef\"").error, "[D_STR_NL] line 1: newline encountered in string literal");
    EXPECT_EQ(lex_all("\n\"abc\\\"\n").error, "[D_STR_NL] line 2: newline encountered in string literal");
    EXPECT_EQ(lex_all("\"abc").error, "[D_SYNTAX] line 1: syntax error near \"\"\"");
    EXPECT_EQ(lex_all("\"abc\\\nd\"").error, "[D_SYNTAX] line 1: syntax error near \"\"\"");
}

TEST(DecodeEscapes, MatchesDTrace) {
    EXPECT_EQ(decode_escapes("a\\"), "a");
    EXPECT_EQ(decode_escapes("\\x4142"), "\x42"); // all hex digits are taken; the last byte stays
    EXPECT_EQ(decode_escapes("\\0a"), std::string("\0a", 2));
}

LexerConfig with_args(std::vector<std::string> args) {
    LexerConfig c;
    c.macro_args = std::move(args);
    c.macro_vars = {{"pid", "123"}, {"target", "4294967295"}};
    return c;
}

TEST(LexerMacros, ArgumentsBecomeOneToken) {
    LexerConfig c =
        with_args({"script.d", "42", "foo", "a b", "\"quoted\"", "-5", "+0x10", "1.5", "x\\ty", "mod`sym", "", "\""});
    Token t = lex_one("$1", c);
    EXPECT_EQ(t.kind, Tok::IntLit);
    EXPECT_EQ(t.int_value, 42u);
    EXPECT_EQ(t.text, "$1");
    t = lex_one("$2", c);
    EXPECT_EQ(t.kind, Tok::Ident);
    EXPECT_EQ(t.value, "foo");
    t = lex_one("$3", c);
    EXPECT_EQ(t.kind, Tok::StringLit);
    EXPECT_EQ(t.value, "a b");
    EXPECT_EQ(lex_one("$4", c).value, "quoted");
    t = lex_one("$5", c);
    EXPECT_EQ(t.kind, Tok::IntLit);
    EXPECT_EQ(t.int_value, 5u);
    EXPECT_EQ(t.int_sign, '-');
    t = lex_one("$6", c);
    EXPECT_EQ(t.int_value, 16u);
    EXPECT_EQ(t.int_sign, '+');
    EXPECT_FALSE(t.int_decimal);
    t = lex_one("$7", c);
    EXPECT_EQ(t.kind, Tok::StringLit);
    EXPECT_EQ(t.value, "1.5");
    EXPECT_EQ(lex_one("$8", c).value, "x\ty");
    EXPECT_EQ(lex_one("$9", c).value, "mod`sym");
    EXPECT_EQ(lex_one("$10", c).kind, Tok::StringLit); // empty
    EXPECT_EQ(lex_one("$11", c).value, "\"");          // a lone quote is kept
    t = lex_one("$0", c);
    EXPECT_EQ(t.kind, Tok::StringLit);
    EXPECT_EQ(t.value, "script.d");
    // $$n is always a string.
    t = lex_one("$$1", c);
    EXPECT_EQ(t.kind, Tok::StringLit);
    EXPECT_EQ(t.value, "42");
    EXPECT_EQ(t.text, "$$1");
}

TEST(LexerMacros, UndefinedArgumentsAndDefaults) {
    LexerConfig c = with_args({"s", "1"});
    EXPECT_EQ(lex_all("x\n$2", LexMode::Expr, c).error, "[D_MACRO_UNDEF] line 2: macro argument $2 is not defined");
    EXPECT_EQ(lex_all("$$3", LexMode::Expr, c).error, "[D_MACRO_UNDEF] line 1: macro argument $$3 is not defined");
    EXPECT_EQ(lex_all("$99999999999", LexMode::Expr, c).error,
              "[D_MACRO_UNDEF] line 1: macro argument $99999999999 is not defined");
    c.default_args = true;
    Token t = lex_one("$2", c);
    EXPECT_EQ(t.kind, Tok::IntLit);
    EXPECT_EQ(t.int_value, 0u);
    t = lex_one("$$2", c);
    EXPECT_EQ(t.kind, Tok::StringLit);
    EXPECT_EQ(t.value, "");
    EXPECT_EQ(lex_one("$001", c).int_value, 1u);
}

TEST(LexerMacros, OverflowingArgument) {
    LexerConfig c = with_args({"s", "99999999999999999999", "-99999999999999999999"});
    EXPECT_EQ(lex_all("$1", LexMode::Expr, c).error,
              "[D_MACRO_OFLOW] line 1: macro argument $1 constant 99999999999999999999 results in integer overflow");
    // With a sign, an overflowing number is not an integer to DTrace: it is a string.
    Token t = lex_one("$2", c);
    EXPECT_EQ(t.kind, Tok::StringLit);
    EXPECT_EQ(t.value, "-99999999999999999999");
}

TEST(LexerMacros, Variables) {
    LexerConfig c = with_args({"s"});
    Token t = lex_one("$pid", c);
    EXPECT_EQ(t.kind, Tok::IntLit);
    EXPECT_EQ(t.int_value, 123u);
    EXPECT_EQ(t.text, "$pid");
    t = lex_one("$$pid", c);
    EXPECT_EQ(t.kind, Tok::StringLit);
    EXPECT_EQ(t.value, "123");
    // Macro variables are 32-bit ids; as integers DTrace sign-extends them.
    EXPECT_EQ(lex_one("$target", c).int_value, UINT64_MAX);
    EXPECT_EQ(lex_one("$$target", c).value, "4294967295");
    EXPECT_EQ(lex_all("$nosuch", LexMode::Expr, c).error,
              "[D_MACRO_UNDEF] line 1: macro variable $nosuch is not defined");
    EXPECT_EQ(lex_all("$$nosuch", LexMode::Expr, c).error,
              "[D_MACRO_UNDEF] line 1: macro variable $$nosuch is not defined");
}

TEST(LexerMacros, ReferencesAreRecorded) {
    LexerConfig c = with_args({"s", "1", "2", "3"});
    FakeOracle oracle;
    Lexer lexer("$3 + $$1 + $3", c, oracle);
    lexer.set_mode(LexMode::Expr);
    while (lexer.next().kind != Tok::End) {
    }
    EXPECT_EQ(lexer.referenced_args(), (std::set<int>{1, 3}));
}

TEST(IdentOrInteger, DTraceRule) {
    EXPECT_TRUE(is_ident_or_integer("123"));
    EXPECT_TRUE(is_ident_or_integer("-5"));
    EXPECT_TRUE(is_ident_or_integer(" 12")); // strtoull skips blanks
    EXPECT_TRUE(is_ident_or_integer("foo_bar`x"));
    EXPECT_TRUE(is_ident_or_integer("12abc"));
    EXPECT_FALSE(is_ident_or_integer(""));
    EXPECT_FALSE(is_ident_or_integer("a b"));
    EXPECT_FALSE(is_ident_or_integer("1.5"));
    EXPECT_FALSE(is_ident_or_integer("-abc"));
}

} // namespace
} // namespace dtrace::compiler::test
