// Parser: declarations, declarators, struct/union/enum definitions,
// typedef names, inline, translator and provider definitions, and the
// checks DTrace makes on declaration specifiers.
#include "ast_dump.h"

#include <gtest/gtest.h>

namespace dtrace::compiler::test {
namespace {

// Each declaration of the program, dumped; or the error.
std::vector<std::string> decls(std::string_view source) {
    Parsed p = parse(source);
    if (!p.program)
        return {p.error};
    std::vector<std::string> out;
    for (const TopLevel &item : p.program->items) {
        if (item.kind == TopLevel::Kind::Declaration)
            out.push_back(dump(*item.declaration));
    }
    return out;
}

std::string decl(std::string_view source) {
    std::vector<std::string> d = decls(source);
    return d.size() == 1 ? d[0] : "<" + std::to_string(d.size()) + " declarations>";
}

TEST(ParserDecl, BuiltinTypesAndQualifiers) {
    EXPECT_EQ(decl("int x;"), "x: int");
    EXPECT_EQ(decl("unsigned long long int x;"), "x: unsigned long long int");
    EXPECT_EQ(decl("long unsigned x;"), "x: long unsigned");
    EXPECT_EQ(decl("signed char c;"), "c: signed char");
    EXPECT_EQ(decl("short s;"), "s: short");
    EXPECT_EQ(decl("long double d;"), "d: long double");
    EXPECT_EQ(decl("float f;"), "f: float");
    EXPECT_EQ(decl("void *v;"), "v: * void");
    EXPECT_EQ(decl("string s;"), "s: string");
    EXPECT_EQ(decl("const volatile int x;"), "x: const volatile int");
    EXPECT_EQ(decl("int const x;"), "x: const int");
    EXPECT_EQ(decl("uint64_t x, y;"), "x: uint64_t, y: uint64_t");
    EXPECT_EQ(decl("extern x;"), "x: extern <int>");
}

TEST(ParserDecl, StorageClasses) {
    EXPECT_EQ(decl("self int x;"), "x: self int");
    EXPECT_EQ(decl("this string s;"), "s: this string");
    EXPECT_EQ(decl("extern int errno;"), "errno: extern int");
    EXPECT_EQ(decl("static int x;"), "x: static int");
    EXPECT_EQ(decl("register int x;"), "x: register int");
    EXPECT_EQ(decl("auto int x;"), "x: auto int");
    EXPECT_EQ(decl("typedef int myint_t;"), "myint_t: typedef int");
    EXPECT_EQ(decl("int self x;"), "x: self int");
    EXPECT_EQ(decl("extern static int x;"), "[D_DECL_CLASS] line 1: only one storage class allowed in a declaration");
    EXPECT_EQ(decl("self\nthis int x;"), "[D_DECL_CLASS] line 2: only one storage class allowed in a declaration");
}

TEST(ParserDecl, Declarators) {
    EXPECT_EQ(decl("int *p;"), "p: * int");
    EXPECT_EQ(decl("int **p;"), "p: * * int");
    EXPECT_EQ(decl("int * const * volatile p;"), "p: *volatile *const int");
    EXPECT_EQ(decl("int * restrict p;"), "p: *restrict int");
    EXPECT_EQ(decl("int a[4];"), "a: [4] int");
    EXPECT_EQ(decl("int *a[4];"), "a: [4] * int");
    EXPECT_EQ(decl("int (*a)[4];"), "a: * [4] int");
    EXPECT_EQ(decl("int a[2][3];"), "a: [2] [3] int");
    EXPECT_EQ(decl("char buf[sizeof (int) * 2 + 1];"), "buf: [(+ (* (sizeof int) 2) 1)] char");
    EXPECT_EQ(decl("int a[];"), "a: [] int");
    EXPECT_EQ(decl("int (x);"), "x: int");
    EXPECT_EQ(decl("int f(int, char *);"), "f: (int, * char) int");
    EXPECT_EQ(decl("int f(void);"), "f: (void) int");
    EXPECT_EQ(decl("int f();"), "f: () int");
    EXPECT_EQ(decl("int printf(const char *fmt, ...);"), "printf: (fmt: * const char, ...) int");
    EXPECT_EQ(decl("int (*fp)(int);"), "fp: * (int) int");
    EXPECT_EQ(decl("void (*signal(int, void (*)(int)))(int);"), "signal: (int, * (int) void) * (int) void");
    EXPECT_EQ(decl("int *(*x[3])(long);"), "x: [3] * (long) * int");
    EXPECT_EQ(decl("int f(int (a), int *(b)[2]);"), "f: (a: int, b: [2] * int) int");
    EXPECT_EQ(decl("int f(register int x);"), "f: (x: register int) int");
}

TEST(ParserDecl, AssociativeArrays) {
    EXPECT_EQ(decl("int a[int, string];"), "a: [int, string] int");
    EXPECT_EQ(decl("self int a[uint64_t];"), "a: [uint64_t] self int");
    EXPECT_EQ(decl("string names[int, char *, struct foo];"), "names: [int, * char, struct foo] string");
    // A key list may not be varargs (DTrace's dt_decl_prototype for arrays).
    EXPECT_EQ(decl("int a[...];"),
              "[D_DECL_PROTO_VARARGS] line 1: array prototype may not use a variable-length argument list");
    EXPECT_EQ(decl("int a[int x, int y];"), "a: [x: int, y: int] int");
}

TEST(ParserDecl, StructUnionEnum) {
    EXPECT_EQ(decl("struct foo { int a; char *b, c[4]; };"), "struct foo { a: int; b: * char, c: [4] char; }");
    EXPECT_EQ(decl("union u { int i; long l; } x;"), "x: union u { i: int; l: long; }");
    EXPECT_EQ(decl("struct { int a; } anon;"), "anon: struct <anon> { a: int; }");
    EXPECT_EQ(decl("struct foo;"), "struct foo");
    EXPECT_EQ(decl("struct foo *p;"), "p: * struct foo");
    EXPECT_EQ(decl("struct bits { unsigned a : 3, : 2; int b : 1; };"),
              "struct bits { a: unsigned : 3, unsigned : 2; b: int : 1; }");
    EXPECT_EQ(decl("struct outer { struct inner { int x; } in; };"), "struct outer { in: struct inner { x: int; }; }");
    EXPECT_EQ(decl("enum color { RED, GREEN = 5, BLUE = GREEN + 1 };"), "enum color { RED GREEN=5 BLUE=(+ GREEN 1) }");
    EXPECT_EQ(decl("enum { A } e;"), "e: enum <anon> { A }");
    EXPECT_EQ(decl("enum color c;"), "c: enum color");
    EXPECT_EQ(decl("struct foo { };"), "[D_SYNTAX] line 1: syntax error near \"}\"");
    EXPECT_EQ(decl("struct foo { int; };"), "[D_SYNTAX] line 1: syntax error near \";\"");
    EXPECT_EQ(decl("enum e { A, };"), "[D_SYNTAX] line 1: syntax error near \"}\"");
    EXPECT_EQ(decl("enum e { A = 1, 2 };"), "[D_SYNTAX] line 1: syntax error near \"2\"");
    EXPECT_EQ(decl("struct;"), "[D_SYNTAX] line 1: syntax error near \";\"");
    EXPECT_EQ(decl("struct s { self int x; };"), "[D_SYNTAX] line 1: syntax error near \"self\"");
}

TEST(ParserDecl, TypedefNamesAreTracked) {
    std::vector<std::string> d = decls("typedef unsigned long my_t;\nmy_t * x;\nmy_t y[4];\n"
                                       "typedef struct foo foo_t, *foop_t;\nfoop_t p;\n");
    EXPECT_EQ(d, (std::vector<std::string>{"my_t: typedef unsigned long", "x: * my_t", "y: [4] my_t",
                                           "foo_t: typedef struct foo, foop_t: * typedef struct foo", "p: foop_t"}));
    // The declared name may itself be a type name (a type is already named).
    EXPECT_EQ(decls("typedef int foo_t;\nstruct s { foo_t foo_t; };\n").back(), "struct s { foo_t: foo_t; }");
    // Built-in D typedefs start declarations at the outer level.
    EXPECT_EQ(decl("int64_t x;"), "x: int64_t");
    EXPECT_EQ(decl("size_t*p;"), "p: * size_t");
}

TEST(ParserDecl, SecondTypeNameIsTheDeclaredName) {
    // DTrace's dt_decl_spec(): `int string` declares a variable named string.
    EXPECT_EQ(decl("int string;"), "string: int");
    EXPECT_EQ(decl("int string x;"), "[D_DECL_IDENT] line 1: old-style declaration or incorrect type specified");
    EXPECT_EQ(decl("typedef int string;"), "[D_DECL_IDRED] line 1: identifier redeclared: string");
}

TEST(ParserDecl, SpecifierChecks) {
    EXPECT_EQ(decl("int char x;"), "[D_DECL_COMBO] line 1: invalid type combination");
    EXPECT_EQ(decl("int\nint x;"), "[D_DECL_COMBO] line 2: invalid type combination");
    EXPECT_EQ(decl("struct { int a; } int x;"), "[D_DECL_COMBO] line 1: invalid type combination");
    EXPECT_EQ(decl("int struct foo x;"), "[D_DECL_COMBO] line 1: invalid type combination");
    EXPECT_EQ(decl("long long long x;"),
              "[D_DECL_COMBO] line 1: the attribute 'long' may only be used at most twice in a declaration");
    EXPECT_EQ(decl("short short x;"),
              "[D_DECL_COMBO] line 1: the attribute 'short' may only be used at most once in a declaration");
    EXPECT_EQ(decl("signed signed x;"),
              "[D_DECL_COMBO] line 1: the attribute 'signed' may only be used at most once in a declaration");
    EXPECT_EQ(decl("unsigned unsigned x;"),
              "[D_DECL_COMBO] line 1: the attribute 'unsigned' may only be used at most once in a declaration");
    EXPECT_EQ(decl("long char x;"),
              "[D_DECL_CHARATTR] line 1: invalid type declaration: short and long may not be used with char type");
    EXPECT_EQ(decl("unsigned void x;"),
              "[D_DECL_VOIDATTR] line 1: invalid type declaration: attributes may not be used with void type");
    EXPECT_EQ(decl("unsigned float x;"),
              "[D_DECL_SIGNINT] line 1: invalid type declaration: signed and unsigned may only be used with integer "
              "type");
    EXPECT_EQ(decl("unsigned string x;"),
              "[D_DECL_SIGNINT] line 1: invalid type declaration: signed and unsigned may only be used with integer "
              "type");
    EXPECT_EQ(decl("long struct foo x;"),
              "[D_DECL_LONGINT] line 1: invalid type declaration: long and long long may only be used with integer or "
              "floating-point type");
    EXPECT_EQ(decl("long long x;"), "x: long long");
    EXPECT_EQ(decl("char unsigned x;"), "x: char unsigned");
}

TEST(ParserDecl, DeclarationChecks) {
    EXPECT_EQ(decl("int;"), "[D_DECL_USELESS] line 1: useless declaration");
    EXPECT_EQ(decl("extern int\n;"), "[D_DECL_USELESS] line 2: useless declaration");
    EXPECT_EQ(decl("int genunix`x;"),
              "[D_DECL_SCOPE] line 1: D scoping operator may not be used in a declaration name (genunix`x)");
    EXPECT_EQ(decl("struct s { int a`b; };"),
              "[D_DECL_SCOPE] line 1: D scoping operator may not be used in a member name (a`b)");
    EXPECT_EQ(decl("int f(static int x);"),
              "[D_DECL_PARMCLASS] line 1: inappropriate storage class for function or associative array parameter");
    EXPECT_EQ(decl("int a[extern int];"),
              "[D_DECL_PARMCLASS] line 1: inappropriate storage class for function or associative array parameter");
    EXPECT_EQ(decl("int f(self int x);"), "[D_SYNTAX] line 1: syntax error near \"self\"");
    EXPECT_EQ(decl("int x = 1;"), "[D_SYNTAX] line 1: syntax error near \"=\"");
    EXPECT_EQ(decl("int x"), "[D_SYNTAX] line 1: syntax error near end of input");
    EXPECT_EQ(decl("int *;"), "[D_SYNTAX] line 1: syntax error near \";\"");
    EXPECT_EQ(decl("int [4] x;"), "[D_SYNTAX] line 1: syntax error near \"[\"");
    EXPECT_EQ(decl("int a[x = 1];"), "[D_SYNTAX] line 1: syntax error near \"=\"");
    EXPECT_EQ(decl("counter x;"), "[D_SYNTAX] line 1: syntax error near \"counter\"");
}

TEST(ParserDecl, Inline) {
    EXPECT_EQ(decl("inline int NCPU = 64;"), "NCPU: inline int = 64");
    EXPECT_EQ(decl("inline string state[int x] = x == 1 ? \"on\" : \"off\";"),
              "state: [x: int] inline string = (? (== x 1) \"on\" \"off\")");
    EXPECT_EQ(decl("inline uint64_t *p = (uint64_t *)0;"), "p: * inline uint64_t = (cast * uint64_t #0)");
    EXPECT_EQ(decl("inline int x;"), "[D_SYNTAX] line 1: syntax error near \";\"");
    EXPECT_EQ(decl("inline x = 1;"), "[D_SYNTAX] line 1: syntax error near \"x\"");
    EXPECT_EQ(decl("inline int a = 1, b = 2;"), "[D_SYNTAX] line 1: syntax error near \",\"");
    EXPECT_EQ(decl("inline static int x = 1\n;"),
              "[D_DECL_BADCLASS] line 2: specified storage class not appropriate for inline declaration");
    // The value is an assignment expression, and the lexer is back at the outer level after it.
    std::vector<std::string> d = decls("inline int a = b = 2;\nBEGIN {}\nint c;");
    EXPECT_EQ(d, (std::vector<std::string>{"a: inline int = (= b 2)", "c: int"}));
}

TEST(ParserDecl, Translator) {
    Parsed p = parse("translator struct out < struct in *P > {\n  a = P->x;\n  b = P->y + 1;\n};\nBEGIN {}");
    ASSERT_TRUE(p.program) << p.error;
    ASSERT_EQ(p.program->items.at(0).kind, TopLevel::Kind::Translator);
    const Translator &x = *p.program->items[0].translator;
    EXPECT_EQ(dump(*x.output_type), "struct out");
    EXPECT_EQ(dump(*x.input_type), "* struct in");
    EXPECT_EQ(x.input_name, "P");
    ASSERT_EQ(x.members.size(), 2u);
    EXPECT_EQ(x.members[0].first, "a");
    EXPECT_EQ(dump(*x.members[0].second), "(-> P x)");
    EXPECT_EQ(dump(*x.members[1].second), "(+ (-> P y) 1)");
    EXPECT_EQ(x.line, 1);
    p = parse("translator int < int i > { };");
    ASSERT_TRUE(p.program) << p.error;
    EXPECT_TRUE(p.program->items[0].translator->members.empty());
    EXPECT_EQ(parse("translator int < int > { };").error, "[D_SYNTAX] line 1: syntax error near \">\"");
    EXPECT_EQ(parse("translator int < int i > { };").error, "");
    EXPECT_EQ(parse("translator int < int i > { a = 1 };").error, "[D_SYNTAX] line 1: syntax error near \"}\"");
    EXPECT_EQ(parse("translator int < int i > { a = 1; }").error, "[D_SYNTAX] line 1: syntax error near end of input");
}

TEST(ParserDecl, Provider) {
    Parsed p = parse("provider myapp {\n"
                     "  probe query__start(char *, int);\n"
                     "  probe done(struct conn *c) : (int *c);\n"
                     "  probe empty();\n"
                     "};\n");
    ASSERT_TRUE(p.program) << p.error;
    const ProviderDef &pd = *p.program->items.at(0).provider;
    EXPECT_EQ(pd.name, "myapp");
    ASSERT_EQ(pd.probes.size(), 3u);
    EXPECT_EQ(pd.probes[0].name, "query__start");
    EXPECT_EQ(pd.probes[0].params.size(), 2u);
    EXPECT_FALSE(pd.probes[0].has_xlated);
    EXPECT_TRUE(pd.probes[1].has_xlated);
    EXPECT_EQ(dump(pd.probes[1].xlated_params[0]->specifiers, pd.probes[1].xlated_params[0]->declarator), "c: * int");
    EXPECT_EQ(pd.probes[1].line, 3);
    EXPECT_TRUE(pd.probes[2].params.empty());
    EXPECT_TRUE(parse("provider p { };").error.empty());
}

TEST(ParserDecl, ProviderNameChecks) {
    EXPECT_EQ(parse("provider p2 { };").error, "[D_PROV_BADNAME] line 1: provider name may not end with a digit: p2");
    EXPECT_EQ(parse("provider a`b {\n};").error,
              "[D_PROV_BADNAME] line 2: provider name may not contain scoping operator: a`b");
    const std::string long_name(64, 'p');
    EXPECT_EQ(parse("provider " + long_name + " { };").error,
              "[D_PROV_BADNAME] line 1: provider name may not exceed 63 characters: " + long_name);
    EXPECT_EQ(parse("provider p { probe a`b(); };").error,
              "[D_PROV_BADNAME] line 1: probe name may not contain scoping operator: ::a`b");
    // "__" stands for "-" and counts as one character.
    const std::string probe_name = std::string(62, 'x') + "__y";
    EXPECT_EQ(parse("provider p { probe " + probe_name + "(); };").error,
              "[D_PROV_BADNAME] line 1: probe name may not exceed 63 characters: ::" + std::string(62, 'x') + "-y");
    EXPECT_EQ(parse("provider p { probe x(); int y; };").error, "[D_SYNTAX] line 1: syntax error near \"int\"");
}

} // namespace
} // namespace dtrace::compiler::test
