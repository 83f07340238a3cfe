// Parser: program structure: probe clauses (descriptions, predicates,
// bodies), statements and if/else, probe description fields and macro
// expansion, probe ids, and how scripts and command-line programs differ.
#include "ast_dump.h"

#include <gtest/gtest.h>

namespace dtrace::compiler::test {
namespace {

std::vector<std::string> statements(const ProbeClause &c) {
    std::vector<std::string> out;
    for (const StmtPtr &s : c.statements)
        out.push_back(dump(*s));
    return out;
}

std::vector<std::string> body(std::string_view source) {
    Parsed p = parse(source);
    if (!p.program)
        return {p.error};
    return statements(first_clause(*p.program));
}

TEST(ParserProgram, EmptyProgram) {
    // DTrace reports an empty program at the end of its input (D_EMPTY),
    // pragmas alone included, unless -x empty allows it.
    EXPECT_EQ(parse("").error, "[D_EMPTY] line 1: empty D program translation unit");
    EXPECT_EQ(parse("  /* nothing */ \n\n").error, "[D_EMPTY] line 3: empty D program translation unit");
    EXPECT_EQ(parse("#pragma D option quiet\n").error, "[D_EMPTY] line 2: empty D program translation unit");
    ParseOptions o = script_options();
    o.allow_empty = true;
    Parsed p = parse("", o);
    ASSERT_TRUE(p.program);
    EXPECT_TRUE(p.program->items.empty());
    EXPECT_TRUE(parse("  /* nothing */ \n", o).program->items.empty());
    EXPECT_EQ(parse("int x;").error, "") << "a declaration is not empty";
}

TEST(ParserProgram, LastMacroArgumentMustBeReferenced) {
    ParseOptions o = script_options();
    o.macro_args = {"s.d", "one", "two"};
    EXPECT_EQ(parse("BEGIN { trace($2); }", o).error, "");
    EXPECT_EQ(parse("BEGIN\n{ trace($1); }\n", o).error,
              "[D_MACRO_UNUSED] line 3: extraneous argument 'two' ($2 is not referenced)");
    EXPECT_EQ(parse("BEGIN { trace($$2); }", o).error, "");
    o.allow_unreferenced_args = true;
    EXPECT_EQ(parse("BEGIN { trace($1); }", o).error, "");
    o.macro_args = {"s.d"};
    o.allow_unreferenced_args = false;
    EXPECT_EQ(parse("BEGIN { }", o).error, "") << "$0 alone is never extraneous";
}

TEST(ParserProgram, ClauseShapes) {
    Parsed p = parse("syscall::read:entry,\nsyscall::write:entry\n/pid == 1/\n{\n\ttrace(arg0);\n}\n"
                     "BEGIN{}END{exit(0)}");
    ASSERT_TRUE(p.program) << p.error;
    ASSERT_EQ(p.program->items.size(), 3u);
    const ProbeClause &c = *p.program->items[0].clause;
    ASSERT_EQ(c.probes.size(), 2u);
    EXPECT_EQ(c.probes[0].text, "syscall::read:entry");
    EXPECT_EQ(c.probes[1].text, "syscall::write:entry");
    EXPECT_EQ(c.probes[1].line, 2);
    EXPECT_EQ(c.line, 1);
    ASSERT_TRUE(c.predicate);
    EXPECT_EQ(dump(*c.predicate), "(== pid 1)");
    EXPECT_TRUE(c.has_body);
    EXPECT_EQ(statements(c), (std::vector<std::string>{"(call trace arg0);"}));
    const ProbeClause &begin = *p.program->items[1].clause;
    EXPECT_TRUE(begin.has_body);
    EXPECT_TRUE(begin.statements.empty());
    EXPECT_FALSE(begin.predicate);
    EXPECT_EQ(statements(*p.program->items[2].clause), (std::vector<std::string>{"(call exit #0);"}));
}

TEST(ParserProgram, PredicateForms) {
    Parsed p = parse("BEGIN /a / b/ {}\nEND /(x[1] > 2) && !y/ {}\ntick-1s / a, b / {}");
    ASSERT_TRUE(p.program) << p.error;
    EXPECT_EQ(dump(*p.program->items[0].clause->predicate), "(/ a b)");
    EXPECT_EQ(dump(*p.program->items[1].clause->predicate), "(&& (> ([] x 1) 2) (! y))");
    EXPECT_EQ(dump(*p.program->items[2].clause->predicate), "(, a b)");
}

TEST(ParserProgram, ClauseErrors) {
    EXPECT_EQ(parse("BEGIN /x/").error,
              "[D_SYNTAX] line 1: expected actions { } following probe description and predicate");
    // The line is the predicate's (an identifier's own line).
    EXPECT_EQ(parse("BEGIN\n/x\n/;").error,
              "[D_SYNTAX] line 2: expected actions { } following probe description and predicate");
    EXPECT_EQ(parse("BEGIN /x {}").error, "[D_SYNTAX] line 1: syntax error near \"{\"");
    EXPECT_EQ(parse("BEGIN /(x/ {}").error, "[D_SYNTAX] line 1: closing ) expected in predicate before /");
    EXPECT_EQ(parse("BEGIN {} ;").error, "[D_SYNTAX] line 1: syntax error near \";\"");
    EXPECT_EQ(parse("BEGIN { x = 1; } }").error, "[D_SYNTAX] line 1: syntax error near \"}\"");
    EXPECT_EQ(parse("BEGIN,").error, "[D_SYNTAX] line 1: syntax error near end of input");
    EXPECT_EQ(parse("BEGIN, {").error, "[D_SYNTAX] line 1: syntax error near \"{\"");
    EXPECT_EQ(parse("BEGIN {").error, "[D_SYNTAX] line 1: syntax error near end of input");
    EXPECT_EQ(parse("BEGIN { int x; }").error, "[D_SYNTAX] line 1: syntax error near \"int\"");
    EXPECT_EQ(parse("{ x = 1; }").error, "[D_SYNTAX] line 1: syntax error near \"{\"");
    EXPECT_EQ(parse("BEGIN { { x = 1; } }").error, "[D_SYNTAX] line 1: syntax error near \"{\"");
    EXPECT_EQ(parse("BEGIN { while (1) {} }").error, "[D_SYNTAX] line 1: syntax error near \"while\"");
    // There are no // comments without the C preprocessor.
    EXPECT_EQ(parse("// comment\nBEGIN {}").error, "[D_SYNTAX] line 1: syntax error near \"/\"");
    EXPECT_EQ(parse("BEGIN { x = 1; // c\n}").error, "[D_SYNTAX] line 1: syntax error near \"/\"");
}

TEST(ParserProgram, ScriptsNeedPredicateOrActions) {
    EXPECT_EQ(parse("BEGIN").error, "[D_SYNTAX] line 1: expected predicate and/or actions following probe description");
    EXPECT_EQ(parse("\nBEGIN,\nEND\n").error,
              "[D_SYNTAX] line 2: expected predicate and/or actions following probe description");
    ParseOptions cmdline;
    Parsed p = parse("BEGIN", cmdline);
    ASSERT_TRUE(p.program) << p.error;
    EXPECT_FALSE(p.program->items[0].clause->has_body);
    p = parse("syscall:::entry syscall:::return", cmdline);
    ASSERT_TRUE(p.program) << p.error;
    EXPECT_EQ(p.program->items.size(), 2u);
    // After a clause without actions the lexer is at the outer level again,
    // so a declaration keyword read as its look-ahead is followed by probe words.
    EXPECT_EQ(parse("BEGIN int x;", cmdline).error, "[D_SYNTAX] line 1: syntax error near \"x\"");
}

TEST(ParserProgram, CommandLineProgramsReadTypeLikeWordsAsProbes) {
    ParseOptions cmdline;
    Parsed p = parse("uint64_t { }", cmdline);
    ASSERT_TRUE(p.program) << p.error;
    EXPECT_EQ(p.program->items[0].clause->probes[0].text, "uint64_t");
    EXPECT_EQ(parse("uint64_t x;").error, ""); // scripts read it as a declaration
}

TEST(ParserProgram, Statements) {
    EXPECT_EQ(body("BEGIN { a = 1; b = 2 }"), (std::vector<std::string>{"(= a 1);", "(= b 2);"}));
    EXPECT_EQ(body("BEGIN { ; a; ;; }"), (std::vector<std::string>{";", "a;", ";", ";"}));
    EXPECT_EQ(body("BEGIN { a = 1; b = 2; }"), (std::vector<std::string>{"(= a 1);", "(= b 2);"}));
    EXPECT_EQ(body("BEGIN { a b }"), (std::vector<std::string>{"[D_SYNTAX] line 1: syntax error near \"b\""}));
}

TEST(ParserProgram, IfElse) {
    EXPECT_EQ(body("BEGIN { if (x) y = 1; }"), (std::vector<std::string>{"if x (= y 1);"}));
    EXPECT_EQ(body("BEGIN { if (x) { y = 1; z = 2 } else w = 3; }"),
              (std::vector<std::string>{"if x { (= y 1); (= z 2); } else (= w 3);"}));
    EXPECT_EQ(body("BEGIN { if (a) if (b) x; else y; }"), (std::vector<std::string>{"if a if b x; else y;"}));
    EXPECT_EQ(body("BEGIN { if (a) {} else if (b) {} else ; z }"),
              (std::vector<std::string>{"if a { } else if b { } else ;", "z;"}));
    EXPECT_EQ(body("BEGIN { if (a, b) ; }"), (std::vector<std::string>{"if (, a b) ;"}));
    EXPECT_EQ(body("BEGIN { if (x) y }"), (std::vector<std::string>{"[D_SYNTAX] line 1: syntax error near \"}\""}));
    EXPECT_EQ(body("BEGIN { if x { } }"), (std::vector<std::string>{"[D_SYNTAX] line 1: syntax error near \"x\""}));
    EXPECT_EQ(body("BEGIN { else x; }"), (std::vector<std::string>{"[D_SYNTAX] line 1: syntax error near \"else\""}));
}

TEST(ParserProgram, ProbeDescriptionFields) {
    Parsed p = parse("syscall::read:entry, fbt:genunix:*:return, tick-1s, ::open*:, :::, a:b:c:d, x:y {}");
    ASSERT_TRUE(p.program) << p.error;
    const std::vector<ProbeSpecifier> &ps = p.program->items[0].clause->probes;
    auto fields = [](const ProbeSpecifier &s) { return s.provider + "|" + s.module + "|" + s.function + "|" + s.name; };
    EXPECT_EQ(fields(ps[0]), "syscall||read|entry");
    EXPECT_EQ(fields(ps[1]), "fbt|genunix|*|return");
    EXPECT_EQ(fields(ps[2]), "|||tick-1s");
    EXPECT_EQ(fields(ps[3]), "||open*|");
    EXPECT_EQ(ps[3].text, "::open*:");
    EXPECT_EQ(fields(ps[4]), "|||");
    EXPECT_EQ(fields(ps[5]), "a|b|c|d");
    EXPECT_EQ(fields(ps[6]), "||x|y");
    p = parse(":::entry {}");
    ASSERT_TRUE(p.program) << p.error;
    EXPECT_EQ(p.program->items[0].clause->probes[0].text, ":::entry");
    EXPECT_EQ(fields(p.program->items[0].clause->probes[0]), "|||entry");
    EXPECT_EQ(parse("a:b:c:d:e {}").error,
              "[D_PDESC_INVAL] line 1: invalid probe description \"a:b:c:d:e\": Overspecified probe description");
    // A leading ':' opens no field of its own.
    EXPECT_EQ(parse("::a:b:c {}").error, "");
    const std::string long_name(64, 'n');
    EXPECT_EQ(parse("a:" + long_name + " {}").error,
              "[D_PDESC_INVAL] line 1: invalid probe description \"a:" + long_name + "\": File name too long");
    EXPECT_EQ(parse("fbt::" + std::string(191, 'f') + ": {}").error, "");
}

TEST(ParserProgram, MacrosInProbeDescriptions) {
    ParseOptions o = script_options();
    o.macro_args = {"s.d", "read", "12"};
    o.macro_vars = {{"target", "4321"}, {"pid", "99"}};
    Parsed p = parse("pid$target:libc:$1:entry, syscall::$$1:entry, profile-$2x, a$pid {}", o);
    ASSERT_TRUE(p.program) << p.error;
    const std::vector<ProbeSpecifier> &ps = p.program->items[0].clause->probes;
    EXPECT_EQ(ps[0].text, "pid4321:libc:read:entry");
    EXPECT_EQ(ps[0].provider, "pid4321");
    EXPECT_EQ(ps[0].function, "read");
    EXPECT_EQ(ps[1].text, "syscall::read:entry");
    EXPECT_EQ(ps[2].text, "profile-12x");
    EXPECT_EQ(ps[3].name, "a99");
    ParseResult r = parse_program("syscall::$2:entry {}", o);
    EXPECT_EQ(r.referenced_macro_args, (std::vector<int>{2}));
    EXPECT_EQ(parse("syscall::$3:entry {}", o).error,
              "[D_PDESC_INVAL] line 1: invalid probe description \"syscall::$3:entry\": Undefined macro variable in "
              "probe description");
    EXPECT_EQ(parse("pid$nosuch::: {}", o).error,
              "[D_PDESC_INVAL] line 1: invalid probe description \"pid$nosuch:::\": Undefined macro variable in probe "
              "description");
    EXPECT_EQ(parse("a$:b {}", o).error,
              "[D_PDESC_INVAL] line 1: invalid probe description \"a$:b\": Undefined macro variable in probe "
              "description");
    // Unset arguments are errors in descriptions even with defaultargs.
    o.default_args = true;
    EXPECT_FALSE(parse("syscall::$3:entry {}", o).error.empty());
}

TEST(ParserProgram, ProbeIds) {
    ParseOptions cmdline;
    Parsed p = parse("42 {}", cmdline);
    ASSERT_TRUE(p.program) << p.error;
    const ProbeSpecifier &s = p.program->items[0].clause->probes[0];
    EXPECT_TRUE(s.by_id);
    EXPECT_EQ(s.probe_id, 42u);
    EXPECT_EQ(s.text, "42");
    EXPECT_EQ(parse("4294967296 {}").error, "[D_PDESC_INVAL] line 1: identifier 4294967296 exceeds maximum probe id");
    cmdline.probe_spec = ProbeSpecKind::Function;
    EXPECT_EQ(parse("42 {}", cmdline).error,
              "[D_PDESC_INVAL] line 1: probe identifier 42 not permitted when specifying functions");
}

TEST(ParserProgram, OtherProbeSpecKinds) {
    ParseOptions o;
    o.probe_spec = ProbeSpecKind::Provider;
    Parsed p = parse("syscall {}", o);
    ASSERT_TRUE(p.program) << p.error;
    EXPECT_EQ(p.program->items[0].clause->probes[0].provider, "syscall");
    EXPECT_EQ(p.program->items[0].clause->probes[0].name, "");
    EXPECT_EQ(parse("a:b {}", o).error,
              "[D_PDESC_INVAL] line 1: invalid probe description \"a:b\": Overspecified probe description");
    o.probe_spec = ProbeSpecKind::Module;
    p = parse("libc.so.1 {}", o);
    ASSERT_TRUE(p.program) << p.error;
    EXPECT_EQ(p.program->items[0].clause->probes[0].module, "libc.so.1");
}

TEST(ParserProgram, ReferencedMacroArguments) {
    ParseOptions o = script_options();
    o.macro_args = {"s.d", "1", "2", "3"};
    ParseResult r = parse_program("BEGIN { x = $3 + $1; y = $$3; }", o);
    ASSERT_TRUE(r.program);
    EXPECT_EQ(r.referenced_macro_args, (std::vector<int>{1, 3}));
    // Recorded even when the parse fails afterwards.
    r = parse_program("BEGIN { x = $2 + }", o);
    EXPECT_TRUE(r.error);
    EXPECT_EQ(r.referenced_macro_args, (std::vector<int>{2}));
}

TEST(ParserProgram, LinesAcrossAProgram) {
    Parsed p =
        parse("/* header\n * comment\n */\n\nsyscall:::entry\n{\n}\n\nint x;\n\nEND\n{\n\tprintf(\"%d\", x);\n}\n");
    ASSERT_TRUE(p.program) << p.error;
    EXPECT_EQ(p.program->items[0].clause->line, 5);
    EXPECT_EQ(p.program->items[1].declaration->line, 9);
    const ProbeClause &end = *p.program->items[2].clause;
    EXPECT_EQ(end.line, 11);
    EXPECT_EQ(end.statements[0]->expr->line, 13);
    EXPECT_EQ(parse("BEGIN\n{\n\tx = 1;\n\ty = ;\n}\n").error, "[D_SYNTAX] line 4: syntax error near \";\"");
}

TEST(ParserProgram, DiagnosticsAreValues) {
    ParseResult r = parse_program("BEGIN { x = }", script_options());
    EXPECT_FALSE(r.program);
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->tag, Tag::D_SYNTAX);
    EXPECT_EQ(r.error->line, 1);
    EXPECT_EQ(r.error->message, "syntax error near \"}\"");
    EXPECT_EQ(format_diagnostic(*r.error, false), "line 1: syntax error near \"}\"");
}

} // namespace
} // namespace dtrace::compiler::test
