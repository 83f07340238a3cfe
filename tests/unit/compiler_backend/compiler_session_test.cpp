// compiler_session_test.cpp: one Compiler for several programs, as in a
// dtrace run with several -n/-s programs: what one program declares or
// assigns, the next one sees.
#include "source_harness.h"

using namespace dtrace::compiler;
using namespace source_harness;

namespace {

ProgramAst parse_with(const Compiler &compiler, const std::string &src) {
    ParseOptions po;
    po.from_file = true;
    po.is_type_name = [&compiler](std::string_view n) { return compiler.is_type_name(n); };
    auto r = parse_program(src, po);
    EXPECT_FALSE(r.error) << (r.error ? r.error->message : "");
    return std::move(*r.program);
}

// What the second of two programs compiled by one Compiler records when run
// after the first (on one VM, as the engine runs them).
std::vector<Value> run_second(const std::string &first_src, const std::string &second_src) {
    Compiler compiler(CompileOptions{});
    ProgramAst first = parse_with(compiler, first_src);
    CompileResult a = compiler.compile(first);
    ProgramAst second = parse_with(compiler, second_src);
    CompileResult b = compiler.compile(second);
    EXPECT_TRUE(a.program && b.program) << (b.error ? b.error->message : "");
    if (!a.program || !b.program)
        return {};
    Runner r;
    for (const auto &c : a.program->clauses)
        r.run_clause(c);
    std::vector<Value> out;
    for (const auto &c : b.program->clauses)
        for (auto &v : r.run_clause(c))
            out.push_back(v);
    return out;
}

} // namespace

TEST(CompilerSession, LaterProgramsSeeEarlierGlobals) {
    // One variable, with one id in both programs: the VM stores it once.
    auto values = run_second("BEGIN { x = 5; }", "BEGIN { trace(x + 1); }");
    ASSERT_EQ(values.size(), 1u);
    EXPECT_EQ(values[0].i, 6);
}

TEST(CompilerSession, TypedefsAndInlinesCarryOver) {
    auto values =
        run_second("typedef int myint_t;\ninline int TWICE[int v] = v * 2;\n", "BEGIN { trace((myint_t)TWICE[21]); }");
    ASSERT_EQ(values.size(), 1u);
    EXPECT_EQ(values[0].i, 42);
}

TEST(CompilerSession, TypeNamesAreTheDeclaredOnes) {
    Compiler compiler(CompileOptions{});
    EXPECT_FALSE(compiler.is_type_name("myint_t"));
    EXPECT_FALSE(compiler.is_type_name("stack")); // D's own names are the parser's
    ProgramAst program = parse_with(compiler, "typedef int myint_t;");
    ASSERT_TRUE(compiler.compile(program).program);
    EXPECT_TRUE(compiler.is_type_name("myint_t"));
}

TEST(CompilerSession, AggregationsKeepTheirIds) {
    Compiler compiler(CompileOptions{});
    ProgramAst first = parse_with(compiler, "BEGIN { @a = count(); }");
    ProgramAst second = parse_with(compiler, "BEGIN { @b = sum(1); @a = count(); }");
    CompileResult a = compiler.compile(first);
    CompileResult b = compiler.compile(second);
    ASSERT_TRUE(a.program && b.program);
    ASSERT_EQ(b.program->aggregations.size(), 2u);
    EXPECT_EQ(b.program->aggregations[0].name, "a");
    EXPECT_EQ(b.program->aggregations[0].id, a.program->aggregations[0].id);
    EXPECT_NE(b.program->aggregations[1].id, b.program->aggregations[0].id);
}

TEST(CompilerSession, ALibraryErrorFailsEveryProgram) {
    CompileOptions o;
    o.library_sources = {{"broken.d", "typedef struct s { int a; } s_t;\ntranslator s_t < int v > { b = v; };\n"}};
    Compiler compiler(o);
    ProgramAst program = parse_with(compiler, "BEGIN { }");
    CompileResult r = compiler.compile(program);
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->file, "broken.d");
    EXPECT_EQ(r.error->tag, Tag::D_XLATE_MEMB);
}
