// translator_test.cpp: translator definitions, xlate<T>(e) and xlate<T *>(e),
// args[] of translated types, D libraries, and DTrace's translator errors.
#include "source_harness.h"

using namespace dtrace::compiler;
using namespace source_harness;

namespace {

constexpr const char *kOut = "typedef struct out { int x; int y; char c; } out_t;\n"
                             "translator out_t < int v > { x = v * 2; y = v + 1; c = v; };\n";

std::vector<int64_t> ints(const std::vector<Value> &values) {
    std::vector<int64_t> out;
    for (const auto &v : values)
        out.push_back(v.is_string ? INT64_MIN : v.i);
    return out;
}

using Ints = std::vector<int64_t>;

// The SDK example provider's library (sdk/examples/tickprov) and a probe
// whose args[3] is translated from its native uint64_t.
constexpr const char *kTickLibrary = "typedef struct tickinfo {\n"
                                     "    uint64_t ti_count;\n"
                                     "    uint64_t ti_lap;\n"
                                     "    int ti_in_lap;\n"
                                     "} tickinfo_t;\n"
                                     "translator tickinfo_t < uint64_t c > {\n"
                                     "    ti_count = c;\n"
                                     "    ti_lap = c / 10;\n"
                                     "    ti_in_lap = c % 10;\n"
                                     "};\n";

CompileOptions tick_options() {
    CompileOptions o;
    o.library_sources = {{"tickprov", kTickLibrary}};
    o.probe_arg_types = [](const std::vector<std::string> &, int) {
        ProbeArgTypes t;
        t.types = {"uint64_t", "int", "char *", "tickinfo_t"};
        t.native_types = {"", "", "", "uint64_t"};
        return t;
    };
    return o;
}

std::optional<ProgramAst> parse_with_library(const std::string &src) {
    ParseOptions po;
    po.from_file = true;
    auto compiler = std::make_shared<Compiler>(tick_options());
    po.is_type_name = [compiler](std::string_view n) { return compiler->is_type_name(n); };
    auto r = parse_program(src, po);
    if (r.error)
        ADD_FAILURE() << "parse error: " << r.error->message;
    return std::move(r.program);
}

} // namespace

TEST(Translators, MembersOfXlate) {
    EXPECT_EQ(ints(run(std::string(kOut) + "BEGIN { trace(xlate<out_t>(20).x); trace(xlate<out_t>(20).y); }")),
              (Ints{40, 21}));
    EXPECT_EQ(ints(run(std::string(kOut) + "BEGIN { trace(xlate<out_t *>(7)->y); }")), (Ints{8}));
    EXPECT_EQ(ints(run(std::string(kOut) + "BEGIN { trace(xlate<struct out>(3).x); }")), (Ints{6}));
}

TEST(Translators, ValueIsConvertedToTheMemberType) {
    EXPECT_EQ(ints(run(std::string(kOut) + "BEGIN { trace(xlate<out_t>(300).c); }")), (Ints{44}));
}

TEST(Translators, InputIsEvaluatedOnce) {
    EXPECT_EQ(ints(run(std::string(kOut) + "BEGIN { i = 5; trace(xlate<out_t>(i++).x); trace(i); }")), (Ints{10, 6}));
}

TEST(Translators, InputCompatibleAsAnArgument) {
    // A translator from int accepts any integer; its input keeps its value.
    EXPECT_EQ(ints(run(std::string(kOut) + "BEGIN { x = 4ULL; trace(xlate<out_t>(x).y); }")), (Ints{5}));
}

TEST(Translators, InputNameShadowsOtherIdentifiers) {
    EXPECT_EQ(ints(run("typedef struct o { int a; } o_t; translator o_t < int pid > { a = pid + 1; };"
                       "BEGIN { trace(xlate<o_t>(1).a); }")),
              (Ints{2}));
}

TEST(Translators, NestedTranslations) {
    EXPECT_EQ(ints(run(std::string(kOut) +
                       "typedef struct o2 { int z; } o2_t; translator o2_t < int w > { z = xlate<out_t>(w).x + w; };"
                       "BEGIN { trace(xlate<o2_t>(3).z); }")),
              (Ints{9}));
}

TEST(Translators, DefinitionErrors) {
    Diagnostic d = error(std::string(kOut) + "translator out_t < int q > { x = q; };");
    EXPECT_EQ(d.tag, Tag::D_XLATE_REDECL);
    EXPECT_EQ(d.message, "translator from int to out_t has already been declared");
    d = error("translator int < int v > { x = v; };");
    EXPECT_EQ(d.tag, Tag::D_XLATE_SOU);
    EXPECT_EQ(d.message, "translator output type must be a struct or union");
    d = error("struct fwd; translator struct fwd < int v > { x = v; };");
    EXPECT_EQ(d.tag, Tag::D_XLATE_SOU);
    EXPECT_EQ(d.message, "incomplete struct/union/enum struct fwd");
    d = error("typedef struct s { int a; } s_t; translator s_t < int v > { b = v; };");
    EXPECT_EQ(d.tag, Tag::D_XLATE_MEMB);
    EXPECT_EQ(d.message, "translator member b is not a member of s_t");
    d = error("typedef struct s { int a; } s_t; translator s_t < int v > { a = \"str\"; };");
    EXPECT_EQ(d.tag, Tag::D_XLATE_INCOMPAT);
    EXPECT_EQ(d.message, "translator member a definition uses incompatible types: \"int\" = \"string\"");
    d = error("typedef struct s { int a; } s_t; translator s_t < int v > { a = nosuch; };");
    EXPECT_EQ(d.tag, Tag::D_IDENT_UNDEF);
}

TEST(Translators, UseErrors) {
    Diagnostic d = error(std::string(kOut) + "BEGIN { trace(xlate<out_t>(\"s\").x); }");
    EXPECT_EQ(d.tag, Tag::D_XLATE_NONE);
    EXPECT_EQ(d.message, "cannot translate from \"string\" to \"out_t\"");
    d = error(std::string(kOut) + "BEGIN { trace(xlate<out_t>(1).nosuch); }");
    EXPECT_EQ(d.tag, Tag::D_XLATE_NOCONV);
    EXPECT_EQ(d.message, "translator does not define conversion for member: nosuch");
    d = error(std::string(kOut) + "BEGIN { trace(xlate<out_t>(1)->x); }");
    EXPECT_EQ(d.tag, Tag::D_OP_PTR);
    d = error(std::string(kOut) + "BEGIN { trace(xlate<out_t *>(1).x); }");
    EXPECT_EQ(d.tag, Tag::D_OP_SOU);
    EXPECT_EQ(d.message, "operator . cannot be applied to type \"out_t *\"; must be applied to a struct or union");
    d = error(std::string(kOut) + "BEGIN { trace(xlate<out_t>(1)); }");
    EXPECT_EQ(d.tag, Tag::D_TRACE_DYN);
}

TEST(Translators, LibraryTypesAndTranslatedArgs) {
    auto ast = parse_with_library("tick_example::fast:tick { trace(args[3].ti_count); trace(args[3].ti_lap); "
                                  "trace(args[3].ti_in_lap); trace(args[1]); }");
    ASSERT_TRUE(ast);
    Program p = harness::compile_ok(*ast, tick_options());
    harness::Runner r;
    r.env.args = {23, 10, 0, 23}; // the engine hands args[3] the native arg0
    std::vector<Value> out;
    for (const auto &c : p.clauses)
        for (auto &v : r.run_clause(c))
            out.push_back(v);
    EXPECT_EQ(ints(out), (Ints{23, 2, 3, 10}));
}

TEST(Translators, LibraryTypeNames) {
    Compiler compiler(tick_options());
    EXPECT_TRUE(compiler.is_type_name("tickinfo_t"));
    EXPECT_FALSE(compiler.is_type_name("uint64_t")); // D's own: the parser knows it
    EXPECT_FALSE(compiler.is_type_name("tickinfo"));
}

TEST(Translators, LibraryErrorsNameTheLibrary) {
    CompileOptions o;
    o.library_sources = {{"broken.d", "typedef struct s { int a; } s_t;\ntranslator s_t < int v > { b = v; };\n"}};
    Diagnostic d = error("BEGIN { }", o);
    EXPECT_EQ(d.tag, Tag::D_XLATE_MEMB);
    EXPECT_EQ(d.file, "broken.d");
    EXPECT_EQ(d.line, 2);
    o.library_sources = {{"clause.d", "BEGIN { }\n"}};
    EXPECT_EQ(error("BEGIN { }", o).file, "clause.d");
}

TEST(Translators, ArgsWithoutATranslator) {
    CompileOptions o = tick_options();
    o.library_sources.clear();
    o.library_sources = {{"types", "typedef struct tickinfo { int a; } tickinfo_t;"}};
    auto ast = parse_with_library("tick_example::fast:tick { trace(args[3].a); }");
    ASSERT_TRUE(ast);
    Diagnostic d = harness::compile_error(*ast, o);
    EXPECT_EQ(d.tag, Tag::D_ARGS_XLATOR);
    EXPECT_EQ(d.message, "translator for args[3] from uint64_t to tickinfo_t is not defined");
}
