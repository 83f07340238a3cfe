// Control lines: pragmas handed to the compiler in program order, #line and
// cpp's "# N file" lines, #error, ignored directives, and their errors.
#include "ast_dump.h"

#include <gtest/gtest.h>

namespace dtrace::compiler::test {
namespace {

// The program's items as short strings: "pragma option quiet", "clause BEGIN", "decl x: int".
std::vector<std::string> items(const Parsed &p) {
    std::vector<std::string> out;
    if (!p.program)
        return {p.error};
    for (const TopLevel &item : p.program->items) {
        switch (item.kind) {
        case TopLevel::Kind::Pragma: {
            std::string s = "pragma " + item.pragma->name;
            for (const std::string &a : item.pragma->args)
                s += " " + a;
            out.push_back(s + " @" + std::to_string(item.pragma->line));
            break;
        }
        case TopLevel::Kind::Clause:
            out.push_back("clause " + item.clause->probes.at(0).text);
            break;
        case TopLevel::Kind::Declaration:
            out.push_back("decl " + dump(*item.declaration));
            break;
        default:
            out.push_back("other");
        }
    }
    return out;
}

TEST(ControlLines, PragmasComeInProgramOrder) {
    Parsed p = parse("#pragma D option quiet\n"
                     "BEGIN {\n"
                     "#pragma D option bufsize=4m\n"
                     "}\n"
                     "  #pragma D option switchrate=10hz\n"
                     "int x;\n"
                     "#pragma D attributes Evolving/Evolving/Common x\n"
                     "#pragma D binding \"1.0\" x\n"
                     "#pragma D depends_on provider syscall\n"
                     "END {}\n");
    EXPECT_EQ(items(p),
              (std::vector<std::string>{"pragma option quiet @1", "pragma option bufsize=4m @3", "clause BEGIN",
                                        "pragma option switchrate=10hz @5", "decl x: int",
                                        "pragma attributes Evolving/Evolving/Common x @7", "pragma binding 1.0 x @8",
                                        "pragma depends_on provider syscall @9", "clause END"}));
}

TEST(ControlLines, PragmaAfterABodylessClauseFollowsIt) {
    ParseOptions o;
    Parsed p = parse("BEGIN\n#pragma D option quiet\nEND {}\n", o);
    EXPECT_EQ(items(p), (std::vector<std::string>{"clause BEGIN", "pragma option quiet @2", "clause END"}));
}

TEST(ControlLines, IgnoredDirectives) {
    Parsed p = parse("#!/usr/sbin/dtrace -s\n"
                     "#\n"
                     "#pragma once\n"
                     "#pragma ident \"%Z%%M%\"\n"
                     "#ident \"x\"\n"
                     "#pragma\n"
                     "#pragma D\n"
                     "BEGIN {}\n");
    EXPECT_EQ(items(p), (std::vector<std::string>{"clause BEGIN"}));
    EXPECT_EQ(first_clause(*p.program).line, 8);
}

TEST(ControlLines, LineDirectivesRenumberAndNameTheFile) {
    // cpp's form: the next line is line 20 of "foo.d".
    Parsed p = parse("# 20 \"foo.d\"\nBEGIN { x = }\n");
    EXPECT_EQ(p.error, "[D_SYNTAX] \"foo.d\", line 20: syntax error near \"}\"");
    // cpp's flags after the file name are accepted.
    p = parse("# 1 \"/usr/include/x.h\" 1 3 4\n\nBEGIN { x = }\n");
    EXPECT_EQ(p.error, "[D_SYNTAX] \"/usr/include/x.h\", line 2: syntax error near \"}\"");
    // DTrace numbers the line after "#line N" N + 1.
    p = parse("#line 20\nBEGIN { x = }\n");
    EXPECT_EQ(p.error, "[D_SYNTAX] line 21: syntax error near \"}\"");
    // The main input's /dev/fd name is not shown.
    p = parse("# 1 \"a.d\"\n# 5 \"/dev/fd/3\"\nBEGIN { x = }\n");
    EXPECT_EQ(p.error, "[D_SYNTAX] line 5: syntax error near \"}\"");
    // The last file named is kept for later errors.
    p = parse("# 7 \"lib.d\"\nBEGIN {}\n");
    ASSERT_TRUE(p.program);
    EXPECT_EQ(p.program->file_tag, "lib.d");
    EXPECT_EQ(first_clause(*p.program).line, 7);
}

TEST(ControlLines, LineDirectiveInsideAClause) {
    Parsed p = parse("BEGIN\n{\n# 100 \"x.d\"\n\ta = 1;\n\tb = c +;\n}\n");
    EXPECT_EQ(p.error, "[D_SYNTAX] \"x.d\", line 101: syntax error near \";\"");
    p = parse("BEGIN\n{\n# 100\n\ta = 1;\n}\n");
    ASSERT_TRUE(p.program) << p.error;
    EXPECT_EQ(first_clause(*p.program).statements[0]->line, 100);
    // A comment does not hide a control line from the line that follows it,
    // and a '#' inside a comment is not one.
    p = parse("/* # not a directive\n */ BEGIN {}\n");
    EXPECT_EQ(p.error, "");
}

TEST(ControlLines, ErrorDirective) {
    EXPECT_EQ(parse("BEGIN {}\n#error \"stop\" here 3 now\n").error, "[D_PRAGERR] line 2: #error: stop here now ");
    EXPECT_EQ(parse("#pragma error no\n").error, "[D_PRAGERR] line 1: #error: no ");
}

TEST(ControlLines, Errors) {
    EXPECT_EQ(parse("#include <stdio.h>\n").error, "[D_PRAGCTL_INVAL] line 1: invalid control directive: #include");
    EXPECT_EQ(parse("\n#\"x\"\n").error, "[D_PRAGCTL_INVAL] line 3: invalid control directive");
    EXPECT_EQ(parse("#pragma D nosuch\n").error, "[D_PRAGMA_INVAL] line 1: invalid D pragma: nosuch");
    EXPECT_EQ(parse("#pragma D option\n").error, "[D_PRAGMA_MALFORM] line 1: malformed #pragma option <option>=<val>");
    EXPECT_EQ(parse("#pragma D option \"q\"\n").error,
              "[D_PRAGMA_MALFORM] line 1: malformed #pragma option <option>=<val>");
    EXPECT_EQ(parse("#pragma D option a b\n").error,
              "[D_PRAGMA_MALFORM] line 1: superfluous arguments specified for #pragma option");
    EXPECT_EQ(parse("#pragma D attributes x\n").error,
              "[D_PRAGMA_MALFORM] line 1: malformed #pragma attributes <attributes> <ident>");
    EXPECT_EQ(parse("#pragma D binding 1 x\n").error,
              "[D_PRAGMA_MALFORM] line 1: malformed #pragma binding \"version\" <ident>");
    EXPECT_EQ(parse("#pragma D depends_on provider\n").error,
              "[D_PRAGMA_MALFORM] line 1: malformed #pragma depends_on <class> <name>");
    EXPECT_EQ(parse("#pragma D depends_on thing x\n").error,
              "[D_PRAGMA_INVAL] line 1: invalid class thing specified by #pragma depends_on");
    EXPECT_EQ(parse("#line x\n").error, "[D_PRAGMA_MALFORM] line 1: malformed #line <line> [ [\"file\"] state ]");
    EXPECT_EQ(parse("# 3 4\n").error, "[D_PRAGMA_MALFORM] line 2: malformed #line <line> [ [\"file\"] state ]");
    EXPECT_EQ(parse("#pragma D option quiet").error,
              "[D_SYNTAX] line 1: end-of-file encountered before end of control line");
    EXPECT_EQ(parse("#line 08\n").error, "[D_INT_DIGIT] line 1: constant 08 contains invalid digit 8");
    EXPECT_EQ(parse("#error \"a\nb\"\n").error, "[D_STR_NL] line 1: newline encountered in string literal");
    // '#' starts a control line only at the start of a line.
    EXPECT_EQ(parse("BEGIN { x = 1; # no\n}").error, "[D_SYNTAX] line 1: syntax error near \"#\"");
}

TEST(ControlLines, OptionValueIsOneWord) {
    Parsed p = parse("#pragma D option bufsize = 4m\n");
    EXPECT_EQ(p.error, "[D_PRAGMA_MALFORM] line 1: superfluous arguments specified for #pragma option");
    p = parse("#pragma D option  defaultargs \nBEGIN {}");
    EXPECT_EQ(items(p), (std::vector<std::string>{"pragma option defaultargs @1", "clause BEGIN"}));
}

} // namespace
} // namespace dtrace::compiler::test
