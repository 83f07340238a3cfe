// Parser robustness: deep nesting is refused with an error instead of
// exhausting the stack, arbitrary input never crashes or hangs, and large
// programs parse in linear time.
#include "ast_dump.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>

namespace dtrace::compiler::test {
namespace {

std::string repeat(const std::string &s, size_t n) {
    std::string out;
    out.reserve(s.size() * n);
    for (size_t i = 0; i < n; ++i)
        out += s;
    return out;
}

TEST(ParserRobustness, ReasonableNestingParses) {
    const size_t depth = 100;
    EXPECT_EQ(parse("BEGIN { x = " + repeat("(", depth) + "1" + repeat(")", depth) + "; }").error, "");
    EXPECT_EQ(parse("BEGIN { x = " + repeat("-", depth) + "1; }").error, "");
    EXPECT_EQ(parse("BEGIN { " + repeat("if (x) ", depth) + "y; }").error, "");
    EXPECT_EQ(parse("int " + repeat("(", depth) + "x" + repeat(")", depth) + ";").error, "");
}

TEST(ParserRobustness, DeepNestingIsAnError) {
    const size_t depth = 100000;
    const std::string too_deep = "[D_SYNTAX] line 1: nesting too deep near ";
    for (const std::string &src : {
             "BEGIN { x = " + repeat("(", depth) + "1" + repeat(")", depth) + "; }",
             "BEGIN { x = " + repeat("-", depth) + "1; }",
             "BEGIN { x = " + repeat("!~", depth) + "1; }",
             "BEGIN { x = " + repeat("++", depth) + "y; }",
             "BEGIN { x = " + repeat("a ? b : ", depth) + "c; }",
             "BEGIN { x = " + repeat("a = ", depth) + "c; }",
             "BEGIN { x = " + repeat("(int)", depth) + "c; }",
             "BEGIN { x = " + repeat("f(", depth) + repeat(")", depth) + "; }",
             "BEGIN { x = " + repeat("a[", depth) + repeat("]", depth) + "; }",
             "BEGIN { " + repeat("if (x) ", depth) + "y; }",
             "BEGIN { " + repeat("if (x) {", depth) + repeat("}", depth) + " }",
             "int " + repeat("(", depth) + "x" + repeat(")", depth) + ";",
             "int x" + repeat("[sizeof(int", depth) + repeat(")]", depth) + ";",
             repeat("struct s { ", depth) + "int x;" + repeat(" } m;", depth),
         }) {
        Parsed p = parse(src);
        EXPECT_EQ(p.error.substr(0, too_deep.size()), too_deep) << src.substr(0, 40);
    }
}

TEST(ParserRobustness, LongListsAreFine) {
    const size_t n = 200000;
    EXPECT_EQ(parse("BEGIN { " + repeat("x = 1; ", n) + "}").error, "");
    EXPECT_EQ(parse("BEGIN { trace(1" + repeat(", 1", n) + "); }").error, "");
    EXPECT_EQ(parse("int x" + repeat(", *y", n) + ";").error, "");
    EXPECT_EQ(parse("struct s {" + repeat(" int a;", n) + " };").error, "");
    EXPECT_EQ(parse(repeat("BEGIN {}\n", n / 10)).error, "");
}

TEST(ParserRobustness, LongChainsAreBoundedLikeNesting) {
    // A chain of left-associative operators builds a tree as deep as it is
    // long, which later passes walk recursively: it counts as nesting.
    const std::string too_deep = "[D_SYNTAX] line 1: nesting too deep near ";
    EXPECT_EQ(parse("BEGIN { x = 1" + repeat(" + 1", 500) + "; }").error, "");
    EXPECT_EQ(parse("BEGIN { x = a" + repeat("->b", 500) + "; }").error, "");
    const size_t n = 100000;
    for (const std::string &src :
         {"BEGIN { x = 1" + repeat(" + 1", n) + "; }", "BEGIN { x = a" + repeat(", a", n) + "; }",
          "BEGIN { x = a" + repeat("[1]", n) + "; }", "BEGIN { x = a" + repeat("->b", n) + "; }",
          "BEGIN { x = a" + repeat("++", n) + "; }"}) {
        EXPECT_EQ(parse(src).error.substr(0, too_deep.size()), too_deep) << src.substr(0, 30);
    }
}

TEST(ParserRobustness, TimeIsLinear) {
    auto seconds = [](size_t n) {
        std::string src = "BEGIN { " + repeat("x = a + b[c, d]->e * 2; ", n) + repeat("y = f(x, \"s\", 'c');\n", n) +
                          "}\n" + repeat("/* c */ int v;\n", n);
        auto start = std::chrono::steady_clock::now();
        Parsed p = parse(src);
        EXPECT_EQ(p.error, "");
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    seconds(1000); // warm up
    const double small = seconds(20000), large = seconds(160000);
    EXPECT_LT(large, small * 8 * 4 + 0.05); // 8x the input; allow noise, refuse quadratic growth
}

TEST(ParserRobustness, RandomInputNeverCrashes) {
    // Fragments of D (and junk) glued at random: every parse must end with a
    // program or a diagnostic.
    const std::vector<std::string> pieces = {
        "BEGIN",
        "syscall::read:entry",
        "profile-97",
        ",",
        "/",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ";",
        "x",
        "self",
        "->",
        ".",
        "=",
        "+=",
        "++",
        "--",
        "?",
        ":",
        "1",
        "0x1f",
        "08",
        "'a'",
        "''",
        "\"s\"",
        "\"",
        "@a",
        "@",
        "$1",
        "$$1",
        "$pid",
        "$",
        "int",
        "struct",
        "union",
        "enum",
        "typedef",
        "inline",
        "translator",
        "provider",
        "probe",
        "xlate",
        "<",
        ">",
        "sizeof",
        "stringof",
        "offsetof",
        "if",
        "else",
        "*",
        "&",
        "#pragma D option q\n",
        "#line 3\n",
        "# 1 \"f\"\n",
        "#error x\n",
        "/*",
        "*/",
        "\n",
        " ",
        "\\\n",
        "`",
        "uint64_t",
        "...",
        "^^",
        "1.5",
        "\x01",
        "\xff",
        "\t#",
        "'\\",
        "\\",
    };
    std::mt19937 rng(12345);
    std::uniform_int_distribution<size_t> pick(0, pieces.size() - 1), length(1, 40);
    ParseOptions o = script_options();
    o.macro_args = {"s", "7"};
    o.macro_vars = {{"pid", "1"}};
    for (int i = 0; i < 20000; ++i) {
        std::string src;
        for (size_t n = length(rng); n > 0; --n)
            src += pieces[pick(rng)] + (rng() % 2 ? " " : "");
        ParseResult r = parse_program(src, o);
        EXPECT_TRUE(r.program.has_value() != r.error.has_value()) << src;
        if (r.error) {
            EXPECT_FALSE(r.error->message.empty()) << src;
        }
    }
}

TEST(ParserRobustness, RandomBytesNeverCrash) {
    std::mt19937 rng(777);
    for (int i = 0; i < 5000; ++i) {
        std::string src(rng() % 64, '\0');
        for (char &c : src)
            c = static_cast<char>(rng() % 256);
        ParseResult r = parse_program(src, ParseOptions{});
        EXPECT_TRUE(r.program.has_value() != r.error.has_value());
    }
}

} // namespace
} // namespace dtrace::compiler::test
