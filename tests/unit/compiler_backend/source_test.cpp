// source_test.cpp: end to end from D source: parse, compile, validate and
// run on the DIF VM; and the errors DTrace reports for bad programs.
#include "source_harness.h"

using namespace dtrace::compiler;
using harness::Runner;
using harness::Value;
using namespace source_harness;

TEST(Source, PrecedenceAndConstants) {
    EXPECT_EQ(eval("1 + 2 * 3"), 7);
    EXPECT_EQ(eval("(1 + 2) * 3"), 9);
    EXPECT_EQ(eval("1 << 4 | 1"), 17);
    EXPECT_EQ(eval("10 - 4 - 3"), 3);
    EXPECT_EQ(eval("1 < 2 == 1"), 1);
    EXPECT_EQ(eval("0x10 + 010"), 24);
    EXPECT_EQ(eval("'a'"), 97);
    EXPECT_EQ(eval("-2147483648"), -2147483648LL);
    EXPECT_EQ(eval("sizeof (int) + sizeof (uint64_t)"), 12);
    EXPECT_EQ(eval("!0 + ~0"), 0);
}

TEST(Source, ConversionsAtRunTime) {
    auto v = run("BEGIN { x = 300; y = -6; trace((char)x); trace(y / 4U); trace(y < 1U); trace(y < 1); "
                 "trace((uint8_t)x); trace((short)70000); }");
    ASSERT_EQ(v.size(), 6u);
    EXPECT_EQ(v[0].i, 44);
    EXPECT_EQ(v[1].i, 4294967294); // 64-bit unsigned division, as DTrace (C: 1073741822)
    EXPECT_EQ(v[2].i, 0);
    EXPECT_EQ(v[3].i, 1);
    EXPECT_EQ(v[4].i, 44);
    EXPECT_EQ(v[5].i, 4464);
}

TEST(Source, StringsAndSubroutines) {
    EXPECT_EQ(eval_string("strjoin(\"foo\", \"bar\")"), "foobar");
    EXPECT_EQ(eval("strlen(\"hello\") == 5"), 1);
    EXPECT_EQ(eval("\"abc\" < \"abd\""), 1);
    EXPECT_EQ(eval_string("substr(\"hello world\", 6)"), "world");
    EXPECT_EQ(eval("index(\"hello\", \"l\")"), 2);
    EXPECT_EQ(eval_string("basename(\"/usr/lib/libc.so\")"), "libc.so");
    EXPECT_EQ(eval("strtoll(\"123\") + 1"), 124);
    EXPECT_EQ(eval_string("lltostr(-42)"), "-42");
    EXPECT_EQ(eval("htons(0x1234)"), 0x3412);
    auto v = run("BEGIN { s = \"x\"; s = strjoin(s, \"y\"); t = s == \"xy\" ? \"yes\" : \"no\"; trace(t); }");
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].s, "yes");
}

TEST(Source, VariablesAndArrays) {
    auto v = run("BEGIN { self->n = 1; this->m = self->n + 1; a[\"k\", 3] = this->m * 10; a[\"k\", 4] = 7; "
                 "a[\"k\", 4] = 0; trace(a[\"k\", 3]); trace(a[\"k\", 4]); self->n++; trace(self->n); "
                 "s[1] = \"one\"; trace(s[1]); }");
    ASSERT_EQ(v.size(), 4u);
    EXPECT_EQ(v[0].i, 20);
    EXPECT_EQ(v[1].i, 0);
    EXPECT_EQ(v[2].i, 2);
    EXPECT_EQ(v[3].s, "one");
}

TEST(Source, PredicatesAndClauses) {
    Runner r;
    r.env.values[dtrace::dif::VarId::Pid] = 7;
    auto v = run("BEGIN { x = 1; } BEGIN /x == 1/ { trace(\"one\"); } BEGIN /x == 2/ { trace(\"two\"); } "
                 "BEGIN /pid == 7 && x++ == 1/ { trace(x); }",
                 r);
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].s, "one");
    EXPECT_EQ(v[1].i, 2);
}

TEST(Source, DeclarationsAndInlines) {
    auto v = run("inline int LIMIT = 10 * 2; int total; self string name; typedef unsigned char byte_t; "
                 "enum color { RED, GREEN = 5, BLUE };\n"
                 "BEGIN { total = LIMIT + BLUE; self->name = \"n\"; b = (byte_t)257; trace(total); trace(b); "
                 "trace(self->name); trace(sizeof (byte_t)); }");
    ASSERT_EQ(v.size(), 4u);
    EXPECT_EQ(v[0].i, 26);
    EXPECT_EQ(v[1].i, 1);
    EXPECT_EQ(v[2].s, "n");
    EXPECT_EQ(v[3].i, 1);
}

TEST(Source, AggregationsAndPrintf) {
    auto ast = parse("BEGIN { @counts[execname, pid] = count(); @ = sum(10); @lat = quantize(5); "
                     "@l = lquantize(5, 0, 100, 10); @ll = llquantize(5, 10, 0, 6, 20); "
                     "@m = max(3); @s = stddev(1); @a = avg(2); @n = min(1); "
                     "printf(\"%s %d\\n\", execname, pid); printa(@counts); exit(0); }");
    ASSERT_TRUE(ast);
    auto prog = harness::compile_ok(*ast);
    ASSERT_EQ(prog.aggregations.size(), 9u);
    EXPECT_EQ(prog.aggregations[0].name, "counts");
    EXPECT_EQ(prog.aggregations[1].name, "");
    EXPECT_EQ(prog.aggregations[4].params, (std::vector<int64_t>{10, 0, 6, 20}));
    const auto &acts = prog.clauses.at(0).actions;
    EXPECT_EQ(acts[9].kind, ActionKind::Printf);
    EXPECT_EQ(acts[9].format, "%s %d\n");
    EXPECT_EQ(acts[11].kind, ActionKind::Exit);
}

TEST(Source, ErrorsWithDTraceMessages) {
    auto d = error("BEGIN\n{\n\ttrace(nosuch);\n}\n");
    EXPECT_EQ(format_diagnostic(d, true), "[D_IDENT_UNDEF] line 3: failed to resolve nosuch: Unknown variable name");
    d = error("BEGIN { x = 1; x = \"a\"; }");
    EXPECT_EQ(d.tag, Tag::D_OP_INCOMPAT);
    d = error("BEGIN { @a = count(); @a = sum(1); }");
    EXPECT_EQ(d.tag, Tag::D_AGG_REDEF);
    d = error("BEGIN { @a = lquantize(1, 10, 0); }");
    EXPECT_EQ(d.tag, Tag::D_LQUANT_MISMATCH);
    d = error("BEGIN { trace(strlen(1)); }");
    EXPECT_EQ(d.tag, Tag::D_PROTO_ARG);
    d = error("BEGIN { x = 1 / 0; }");
    EXPECT_EQ(d.tag, Tag::D_DIV_ZERO);
    d = error("BEGIN { trace(curthread->t_procp); }");
    EXPECT_EQ(d.tag, Tag::D_OP_SOU);
    d = error("BEGIN { a = b = c = d = e = f = g = h = i = j = k = l = 1;\n"
              "trace(a + b * (c + d * (e + f * (g + h * (i + j * (k + l)))))); }");
    EXPECT_EQ(d.tag, Tag::D_NOREG);
}

TEST(Source, StructTypes) {
    EXPECT_EQ(error("BEGIN { trace(sizeof (struct point)); }").tag, Tag::D_SIZEOF_TYPE); // only a forward declaration
    auto v = run("struct point { char tag; int x; long y; };\n"
                 "BEGIN { trace(sizeof (struct point)); trace(offsetof(struct point, x)); "
                 "trace(offsetof(struct point, y)); }");
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].i, 16);
    EXPECT_EQ(v[1].i, 4);
    EXPECT_EQ(v[2].i, 8);
    auto d = error("struct point { int x; };\nBEGIN { this->p = (struct point *)alloca(4); trace(this->p->z); }");
    EXPECT_EQ(d.tag, Tag::D_TYPE_MEMBER);
    EXPECT_EQ(d.message, "z is not a member of struct point");
    // Stores go through pointers held in variables (DTrace's writable rule)...
    v = run("struct point { int x; };\nBEGIN { this->p = (struct point *)alloca(4); this->p->x = 7; "
            "this->p->x += 2; trace(this->p->x); }");
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].i, 9);
    // ...and through a pointer computed by a cast, as illumos makes a cast
    // to a pointer type writable.
    v = run("BEGIN { this->p = alloca(4); *(int *)this->p = 5; trace(*(int *)this->p); }");
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].i, 5);
}

TEST(Source, StructVariables) {
    // Unset reads as zeroes; member stores go through a copy stored back whole.
    auto v = run("struct point { int x; int y; };\nstruct point pt;\n"
                 "BEGIN { trace(pt.y); pt.x = 3; pt.y = pt.x + 1; pt.y *= 2; trace(pt.x); trace(pt.y); }");
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].i, 0);
    EXPECT_EQ(v[1].i, 3);
    EXPECT_EQ(v[2].i, 8);
}

TEST(Source, ArgsRangeFromHook) {
    CompileOptions opts;
    opts.probe_arg_types = [](const std::vector<std::string> &, int) { return ProbeArgTypes{{"int"}, std::nullopt}; };
    auto d = error("syscall::read:entry { trace(args[1]); }", opts);
    EXPECT_EQ(d.tag, Tag::D_ARGS_IDX);
    EXPECT_EQ(d.message, "index 1 is out of range for syscall::read:entry args[ ]");
    d = error("syscall::read:entry { trace(args[arg0]); }", opts);
    EXPECT_EQ(d.tag, Tag::D_PROTO_ARG);
    EXPECT_EQ(d.message, "args[ ] argument #1 is incompatible with prototype:\n\tprototype: integer constant\n\t "
                         "argument: int64_t");
}

TEST(Source, MoreSubroutines) {
    EXPECT_EQ(eval_string("strchr(\"hello\", 'l')"), "llo");
    EXPECT_EQ(eval_string("strrchr(\"hello\", 'l')"), "lo");
    EXPECT_EQ(eval_string("strstr(\"hello\", \"el\")"), "ello");
    EXPECT_EQ(eval_string("tolower(\"HeLLo\")"), "hello");
    EXPECT_EQ(eval_string("dirname(\"/usr/lib/libc.so\")"), "/usr/lib");
    EXPECT_EQ(eval_string("cleanpath(\"/usr//lib/../bin\")"), "/usr/bin");
    EXPECT_EQ(eval("rindex(\"hello\", \"l\")"), 3);
    EXPECT_EQ(eval_string("lltostr(255, 16)"), "0xff");
    EXPECT_EQ(eval("ntohl(htonl(0x12345678))"), 0x12345678);
    auto v = run("BEGIN { trace(strtok(\"a,b\", \",\")); trace(strtok(NULL, \",\")); }");
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].s, "a");
    EXPECT_EQ(v[1].s, "b");
}

TEST(Source, RegistersKeepSixtyFourBits) {
    // DTrace computes in 64-bit registers and narrows only when it records,
    // casts, or converts an argument or key.
    EXPECT_EQ(eval("(2147483647 + 1) > 0"), 1);
    EXPECT_EQ(eval("2147483647 + 1"), -2147483648LL);
    auto v = run("BEGIN { x = 2147483647; x++; trace(x > 0); trace(x); trace((long)x); trace(x == -2147483648); }");
    ASSERT_EQ(v.size(), 4u);
    EXPECT_EQ(v[0].i, 1);
    EXPECT_EQ(v[1].i, -2147483648LL);
    EXPECT_EQ(v[2].i, -2147483648LL); // a cast sign-extends from int
    EXPECT_EQ(v[3].i, 0);
    // Shifting a negative constant right folds as a logical shift.
    EXPECT_EQ(eval("(-8 >> 1) < 0"), 0);
    EXPECT_EQ(eval("-8 >> 1"), -4);
    // Negating an unsigned constant stays within its width.
    EXPECT_EQ(eval("-1U == 4294967295"), 1);
}

TEST(Source, ConstantCastsDifferFromRunTimeCasts) {
    // DTrace narrows a constant by zero-extension (dt_cast), a run-time value
    // by its type's signedness.
    EXPECT_EQ(eval("(char)-1 < 0"), 0);
    auto v = run("BEGIN { y = -1; trace((char)y < 0); trace((unsigned char)y); trace((unsigned int)(char)y); }");
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].i, 1);
    EXPECT_EQ(v[1].i, 255);
    EXPECT_EQ(v[2].i, 4294967295LL);
}
