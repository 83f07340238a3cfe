// Parser: expressions, their precedence and associativity, every
// expression form, literal checks, node lines and syntax errors.
#include "ast_dump.h"

#include <gtest/gtest.h>

namespace dtrace::compiler::test {
namespace {

TEST(ParserExpr, BinaryPrecedenceLoosestToTightest) {
    EXPECT_EQ(expr("a || b ^^ c && d | e ^ f & g == h < i << j + k * l"),
              "(|| a (^^ b (&& c (| d (^ e (& f (== g (< h (<< i (+ j (* k l)))))))))))");
    EXPECT_EQ(expr("a * b + c << d < e == f & g ^ h | i && j ^^ k || l"),
              "(|| (^^ (&& (| (^ (& (== (< (<< (+ (* a b) c) d) e) f) g) h) i) j) k) l)");
    EXPECT_EQ(expr("a != b <= c >> d - e % f"), "(!= a (<= b (>> c (- d (% e f)))))");
    EXPECT_EQ(expr("a >= b > c"), "(> (>= a b) c)");
}

TEST(ParserExpr, LeftAssociativity) {
    EXPECT_EQ(expr("a - b - c"), "(- (- a b) c)");
    EXPECT_EQ(expr("a / b / c"), "(/ (/ a b) c)");
    EXPECT_EQ(expr("a % b * c"), "(* (% a b) c)");
    EXPECT_EQ(expr("a << b >> c"), "(>> (<< a b) c)");
    EXPECT_EQ(expr("a ^^ b ^^ c"), "(^^ (^^ a b) c)");
    EXPECT_EQ(expr("a || b || c"), "(|| (|| a b) c)");
    EXPECT_EQ(expr("a == b != c"), "(!= (== a b) c)");
    EXPECT_EQ(expr("a, b, c"), "(, (, a b) c)");
}

TEST(ParserExpr, AssignmentsAreRightAssociative) {
    EXPECT_EQ(expr("a = b = c"), "(= a (= b c))");
    EXPECT_EQ(expr("a += b -= c"), "(+= a (-= b c))");
    const char *ops[] = {"=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|="};
    for (const char *op : ops)
        EXPECT_EQ(expr(std::string("x ") + op + " y + 1"), std::string("(") + op + " x (+ y 1))") << op;
    EXPECT_EQ(expr("x = a ? b : c"), "(= x (? a b c))");
    EXPECT_EQ(expr("a = 1, b = 2"), "(, (= a 1) (= b 2))");
}

TEST(ParserExpr, Conditional) {
    EXPECT_EQ(expr("a ? b : c ? d : e"), "(? a b (? c d e))");
    EXPECT_EQ(expr("a ? b ? c : d : e"), "(? a (? b c d) e)");
    EXPECT_EQ(expr("a || b ? c, d : e"), "(? (|| a b) (, c d) e)");
    EXPECT_EQ(expr("a ? b : c, d"), "(, (? a b c) d)");
}

TEST(ParserExpr, AssignmentNeedsAUnaryLeftSide) {
    EXPECT_EQ(expr("a + b = c"), "[D_SYNTAX] line 1: syntax error near \"=\"");
    EXPECT_EQ(expr("a ? b : c = d"), "[D_SYNTAX] line 1: syntax error near \"=\"");
    EXPECT_EQ(expr("(int)a = b"), "[D_SYNTAX] line 1: syntax error near \"=\"");
    // A parenthesized expression is unary: DTrace leaves the lvalue check to later.
    EXPECT_EQ(expr("(a + b) = c"), "(= (+ a b) c)");
    EXPECT_EQ(expr("*p = 1"), "(= (* p) 1)");
    EXPECT_EQ(expr("a[1]++ = 2"), "(= (post++ ([] a 1)) 2)");
}

TEST(ParserExpr, UnaryOperators) {
    EXPECT_EQ(expr("-a"), "(- a)");
    EXPECT_EQ(expr("+a"), "(+ a)");
    EXPECT_EQ(expr("!a"), "(! a)");
    EXPECT_EQ(expr("~a"), "(~ a)");
    EXPECT_EQ(expr("*a"), "(* a)");
    EXPECT_EQ(expr("&a"), "(& a)");
    EXPECT_EQ(expr("++a"), "(pre++ a)");
    EXPECT_EQ(expr("--a"), "(pre-- a)");
    EXPECT_EQ(expr("- -a"), "(- (- a))");
    EXPECT_EQ(expr("!~-*&a"), "(! (~ (- (* (& a)))))");
    EXPECT_EQ(expr("-a * b"), "(* (- a) b)");
    EXPECT_EQ(expr("*p++"), "(* (post++ p))");
    EXPECT_EQ(expr("-x->y[2]"), "(- ([] (-> x y) 2))");
    EXPECT_EQ(expr("++(int)x"), "[D_SYNTAX] line 1: syntax error near \"int\"");
}

TEST(ParserExpr, PostfixOperators) {
    EXPECT_EQ(expr("a++"), "(post++ a)");
    EXPECT_EQ(expr("a--"), "(post-- a)");
    EXPECT_EQ(expr("a.b.c"), "(. (. a b) c)");
    EXPECT_EQ(expr("a->b->c"), "(-> (-> a b) c)");
    EXPECT_EQ(expr("self->x"), "(-> self x)");
    EXPECT_EQ(expr("this->x"), "(-> this x)");
    EXPECT_EQ(expr("a[1][2]"), "([] ([] a 1) 2)");
    EXPECT_EQ(expr("a[x, y, \"z\"]"), "([] a x y \"z\")");
    EXPECT_EQ(expr("self->a[k]"), "([] (-> self a) k)");
    EXPECT_EQ(expr("(p)->m"), "(-> p m)");
    EXPECT_EQ(expr("f(x)[0].y++"), "(post++ (. ([] (call f x) #0) y))");
    // Member names may be type names.
    EXPECT_EQ(expr("p->uint64_t"), "(-> p uint64_t)");
}

TEST(ParserExpr, Calls) {
    EXPECT_EQ(expr("f()"), "(call f)");
    EXPECT_EQ(expr("printf(\"%d %s\\n\", a, b)"), "(call printf \"%d %s\\n\" a b)");
    EXPECT_EQ(expr("f(a = 1, (b, c))"), "(call f (= a 1) (, b c))");
    EXPECT_EQ(expr("(f)(1)"), "(call f 1)");
    EXPECT_EQ(expr("genunix`f(1)"), "(call genunix`f 1)");
    EXPECT_EQ(expr("1()"), "[D_FUNC_IDENT] line 1: function designator is not of function type");
    EXPECT_EQ(expr("a->b(1)"), "[D_FUNC_IDENT] line 1: function designator is not of function type");
    EXPECT_EQ(expr("f(1,)"), "[D_SYNTAX] line 1: syntax error near \")\"");
    EXPECT_EQ(expr("f(1"), "[D_SYNTAX] line 1: syntax error near \";\"");
}

TEST(ParserExpr, Aggregations) {
    EXPECT_EQ(expr("@a[execname, pid] = count()"), "(= (@a execname pid) (call count))");
    EXPECT_EQ(expr("@ = sum(x)"), "(= @ (call sum x))");
    EXPECT_EQ(expr("@[1] = max(2)"), "(= (@ 1) (call max 2))");
    EXPECT_EQ(expr("@_ = count()"), "(= @ (call count))");
    EXPECT_EQ(expr("@a[1][2] = count()"), "(= ([] (@a 1) 2) (call count))");
    EXPECT_EQ(expr("@a[] = count()"), "[D_SYNTAX] line 1: syntax error near \"]\"");
}

TEST(ParserExpr, Casts) {
    EXPECT_EQ(expr("(int)x"), "(cast int x)");
    EXPECT_EQ(expr("(unsigned long long)x"), "(cast unsigned long long x)");
    EXPECT_EQ(expr("(char *)x + 1"), "(+ (cast * char x) 1)");
    EXPECT_EQ(expr("(uint64_t)(int)-x"), "(cast uint64_t (cast int (- x)))");
    EXPECT_EQ(expr("(struct foo *)p"), "(cast * struct foo p)");
    EXPECT_EQ(expr("(const char **)p"), "(cast * * const char p)");
    EXPECT_EQ(expr("(int (*)(int))p"), "(cast * (int) int p)");
    EXPECT_EQ(expr("(string)x"), "(cast string x)");
    EXPECT_EQ(expr("(userland int *)p"), "(cast * userland int p)");
    // A typedef declared earlier makes (name) a cast; otherwise (name) is a
    // parenthesized variable.
    EXPECT_EQ(expr("(foo_t)x", "typedef int foo_t;"), "(cast foo_t x)");
    EXPECT_EQ(expr("(foo_t)x"), "[D_SYNTAX] line 1: syntax error near \"x\"");
    EXPECT_EQ(expr("(foo_t)"), "foo_t");
    EXPECT_EQ(expr("(int)"), "[D_SYNTAX] line 1: syntax error near \";\"");
}

TEST(ParserExpr, TypeNamesFromTheCaller) {
    ParseOptions o = script_options();
    o.is_type_name = [](std::string_view name) { return name == "genunix`vnode_t" || name == "psinfo_t"; };
    Parsed p = parse("BEGIN { x = (genunix`vnode_t *)p; y = (psinfo_t)q; }", o);
    ASSERT_TRUE(p.program) << p.error;
    const ProbeClause &c = first_clause(*p.program);
    EXPECT_EQ(dump(*c.statements[0]->expr), "(= x (cast * genunix`vnode_t p))");
    EXPECT_EQ(dump(*c.statements[1]->expr), "(= y (cast psinfo_t q))");
    const TypeSpecifier &scoped = c.statements[0]->expr->args[1]->type_name->specifiers.type;
    EXPECT_EQ(scoped.module, "genunix");
    EXPECT_EQ(scoped.name, "vnode_t");
}

TEST(ParserExpr, SizeofStringofOffsetofXlate) {
    EXPECT_EQ(expr("sizeof(int)"), "(sizeof int)");
    EXPECT_EQ(expr("sizeof (struct foo *)"), "(sizeof * struct foo)");
    EXPECT_EQ(expr("sizeof x"), "(sizeof x)");
    EXPECT_EQ(expr("sizeof(x)"), "(sizeof x)");
    EXPECT_EQ(expr("sizeof (x)[1]"), "(sizeof ([] x 1))");
    EXPECT_EQ(expr("sizeof x + 1"), "(+ (sizeof x) 1)");
    EXPECT_EQ(expr("sizeof -x"), "(sizeof (- x))");
    EXPECT_EQ(expr("sizeof(int) * 2"), "(* (sizeof int) 2)");
    EXPECT_EQ(expr("sizeof(int)x"), "[D_SYNTAX] line 1: syntax error near \"x\"");
    EXPECT_EQ(expr("stringof x"), "(stringof x)");
    EXPECT_EQ(expr("stringof(x) + \"\""), "(+ (stringof x) \"\")");
    EXPECT_EQ(expr("offsetof(struct foo, bar)"), "(offsetof struct foo bar)");
    EXPECT_EQ(expr("offsetof(struct foo, size_t)"), "(offsetof struct foo size_t)");
    EXPECT_EQ(expr("offsetof(x, y)"), "[D_SYNTAX] line 1: syntax error near \"x\"");
    EXPECT_EQ(expr("xlate <psinfo_t *>(curthread->t_procp)->pr_pid", "typedef int psinfo_t;"),
              "(-> (xlate * psinfo_t (-> curthread t_procp)) pr_pid)");
    EXPECT_EQ(expr("xlate<int>(x, y)"), "(xlate int (, x y))");
    EXPECT_EQ(expr("xlate(x)"), "[D_SYNTAX] line 1: syntax error near \"(\"");
}

TEST(ParserExpr, PrimaryForms) {
    EXPECT_EQ(expr("\"a\\tb\""), "\"a\\tb\"");
    EXPECT_EQ(expr("'A'"), "char:65");
    EXPECT_EQ(expr("`kmem_flags"), "`kmem_flags");
    EXPECT_EQ(expr("genunix`kmem_flags"), "genunix`kmem_flags");
    EXPECT_EQ(expr("((((x))))"), "x");
    EXPECT_EQ(expr("self"), "self");
}

TEST(ParserExpr, ScopedIdentifierParts) {
    Parsed p = parse("BEGIN { x = unix``sym + `ksym; }");
    ASSERT_TRUE(p.program) << p.error;
    const Expr &sum = *first_clause(*p.program).statements[0]->expr->args[1];
    const Expr &user = *sum.args[0];
    EXPECT_TRUE(user.scoped);
    EXPECT_EQ(user.module, "unix`");
    EXPECT_EQ(user.text, "sym");
    const Expr &kernel = *sum.args[1];
    EXPECT_TRUE(kernel.scoped);
    EXPECT_EQ(kernel.module, "");
    EXPECT_EQ(kernel.text, "ksym");
}

TEST(ParserExpr, IntegerLiteralsAndTheirTypes) {
    EXPECT_EQ(expr("42"), "42");
    EXPECT_EQ(expr("0x2a"), "#42");
    EXPECT_EQ(expr("052"), "#42");
    EXPECT_EQ(expr("0"), "#0");
    EXPECT_EQ(expr("42u"), "42u");
    EXPECT_EQ(expr("42L"), "42l");
    EXPECT_EQ(expr("42Ul"), "42ul");
    EXPECT_EQ(expr("42ll"), "42ll");
    EXPECT_EQ(expr("42ULL"), "42ull");
    EXPECT_EQ(expr("9223372036854775807"), "9223372036854775807");
    EXPECT_EQ(expr("18446744073709551615u"), "18446744073709551615u");
    EXPECT_EQ(expr("0xffffffffffffffff"), "#18446744073709551615");
    // A decimal constant without u must fit a signed type.
    EXPECT_EQ(expr("9223372036854775808"), "[D_INT_OFLOW] line 1: integer constant 0x8000000000000000 cannot be "
                                           "represented in any built-in integral type");
    EXPECT_EQ(expr("18446744073709551615LL"), "[D_INT_OFLOW] line 1: integer constant 0xffffffffffffffff cannot be "
                                              "represented in any built-in integral type");
}

TEST(ParserExpr, MacroArgumentsInExpressions) {
    ParseOptions o = script_options();
    o.macro_args = {"s.d", "-5", "execname", "hello world", "0x10"};
    Parsed p = parse("BEGIN { x = $1 + $2 + $3 + $$1 + $4; }", o);
    ASSERT_TRUE(p.program) << p.error;
    EXPECT_EQ(dump(*first_clause(*p.program).statements[0]->expr),
              "(= x (+ (+ (+ (+ (- 5) execname) \"hello world\") \"-5\") #16))");
}

TEST(ParserExpr, SyntaxErrors) {
    EXPECT_EQ(expr("a +"), "[D_SYNTAX] line 1: syntax error near \";\"");
    EXPECT_EQ(expr("a + * "), "[D_SYNTAX] line 1: syntax error near \";\"");
    EXPECT_EQ(expr("(a"), "[D_SYNTAX] line 1: syntax error near \";\"");
    EXPECT_EQ(expr("a b"), "[D_SYNTAX] line 1: syntax error near \"b\"");
    EXPECT_EQ(expr("a ? b"), "[D_SYNTAX] line 1: syntax error near \";\"");
    EXPECT_EQ(expr("x->"), "[D_SYNTAX] line 1: syntax error near \";\"");
    EXPECT_EQ(expr("x->1"), "[D_SYNTAX] line 1: syntax error near \"1\"");
    EXPECT_EQ(expr("x = while"), "[D_SYNTAX] line 1: syntax error near \"while\"");
    EXPECT_EQ(expr("x = size_t"), "[D_SYNTAX] line 1: syntax error near \"size_t\"");
    EXPECT_EQ(expr("x = \"s\" \"t\""), "[D_SYNTAX] line 1: syntax error near \"\"t\"\"");
    EXPECT_EQ(expr("x = 'ab' 'c'"), "[D_SYNTAX] line 1: syntax error near \"'c\"");
    EXPECT_EQ(expr("x = $1 $1"), "[D_MACRO_UNDEF] line 1: macro argument $1 is not defined");
    EXPECT_EQ(expr("x = 1 @a"), "[D_SYNTAX] line 1: syntax error near \"@a\"");
    EXPECT_EQ(expr("x = [1]"), "[D_SYNTAX] line 1: syntax error near \"[\"");
    EXPECT_EQ(expr("x = ..."), "[D_SYNTAX] line 1: syntax error near \"...\"");
}

TEST(ParserExpr, TypeNameTakenAsVariableWhenAssigned) {
    // DTrace's heuristic: a type name followed by = ++ -- [ is a variable.
    EXPECT_EQ(expr("uint64_t = 1"), "(= uint64_t 1)");
    EXPECT_EQ(expr("size_t[1] = 2"), "(= ([] size_t 1) 2)");
    EXPECT_EQ(expr("pid_t++"), "(post++ pid_t)");
}

TEST(ParserExpr, NodeLinesFollowDTrace) {
    Parsed p = parse("BEGIN\n{\n\tx =\n\t    a +\n\t    f(b,\n\t    c)\n\t;\n}\n");
    ASSERT_TRUE(p.program) << p.error;
    const Stmt &s = *first_clause(*p.program).statements[0];
    EXPECT_EQ(s.line, 7); // the ';'
    const Expr &assign = *s.expr;
    EXPECT_EQ(assign.line, 7); // ended by the ';' on line 7
    EXPECT_EQ(assign.args[0]->line, 3);
    const Expr &sum = *assign.args[1];
    EXPECT_EQ(sum.line, 7);
    EXPECT_EQ(sum.args[0]->line, 4);
    EXPECT_EQ(sum.args[1]->line, 5); // a call has its function name's line
    EXPECT_EQ(sum.args[1]->args[1]->line, 6);
}

TEST(ParserExpr, ErrorLines) {
    EXPECT_EQ(parse("BEGIN\n{\n\tx = 1 +\n\n\t;\n}\n").error, "[D_SYNTAX] line 5: syntax error near \";\"");
    EXPECT_EQ(parse("BEGIN {\n x = (1 +\n 2;\n}").error, "[D_SYNTAX] line 3: syntax error near \";\"");
    EXPECT_EQ(parse("BEGIN {\n x = y\n z;\n}").error, "[D_SYNTAX] line 3: syntax error near \"z\"");
}

} // namespace
} // namespace dtrace::compiler::test
