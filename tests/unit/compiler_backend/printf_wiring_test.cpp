// printf_wiring_test.cpp: the compiler's printf()/printa() hooks wired to
// the consumer's format checker, as the CLI wires them, so that format
// errors come out with DTrace's tags, messages and the action's line.
#include "compiler/parser.h"
#include "consumer/printf_format.h"
#include "harness.h"

using namespace dtrace::compiler;
namespace consumer = dtrace::consumer;

namespace {

consumer::ArgType to_consumer(const ArgTypeInfo &a) {
    using K = consumer::ArgType::Kind;
    switch (a.kind) {
    case ArgTypeInfo::Kind::Integer:
        return consumer::ArgType::integer(a.size, a.is_signed, a.type_name);
    case ArgTypeInfo::Kind::Pointer:
        return consumer::ArgType::of(K::Pointer, a.size, a.type_name);
    case ArgTypeInfo::Kind::String:
        return consumer::ArgType::of(K::String, a.size, a.type_name);
    case ArgTypeInfo::Kind::CharArray:
        return consumer::ArgType::of(K::CharArray, a.size, a.type_name);
    case ArgTypeInfo::Kind::Float:
        return consumer::ArgType::of(K::Float, a.size, a.type_name);
    case ArgTypeInfo::Kind::Struct:
        return consumer::ArgType::of(K::Struct, a.size, a.type_name);
    case ArgTypeInfo::Kind::Stack:
        return consumer::ArgType::of(K::Stack, a.size, a.type_name);
    case ArgTypeInfo::Kind::SymAddr:
        return consumer::ArgType::of(K::SymAddr, a.size, a.type_name);
    case ArgTypeInfo::Kind::USymAddr:
        return consumer::ArgType::of(K::USymAddr, a.size, a.type_name);
    }
    return {};
}

std::optional<Diagnostic> check(const std::string &fmt, const std::vector<ArgTypeInfo> &args,
                                const consumer::CheckOptions &options) {
    auto format = consumer::parse_format(fmt);
    if (!format)
        return format.error();
    std::vector<consumer::ArgType> types;
    for (const auto &a : args)
        types.push_back(to_consumer(a));
    return consumer::check_args(format.value(), types, options);
}

CompileOptions wired() {
    CompileOptions opts;
    opts.check_printf = [](const std::string &fmt, const std::vector<ArgTypeInfo> &args, int) {
        return check(fmt, args, {});
    };
    opts.check_printa = [](const std::string &fmt, const std::vector<ArgTypeInfo> &keys, bool is_count, int) {
        consumer::CheckOptions o;
        o.function = "printa";
        o.exact_length = false;
        o.aggregation = true;
        o.aggregation_is_count = is_count;
        return check(fmt, keys, o);
    };
    return opts;
}

CompileResult compile_source(const std::string &src) {
    auto parsed = parse_program(src, ParseOptions{});
    if (!parsed.program) {
        ADD_FAILURE() << "parse error: " << parsed.error->message;
        return {};
    }
    return compile(*parsed.program, wired());
}

} // namespace

TEST(PrintfWiring, MatchingArgumentsCompile) {
    auto r = compile_source("BEGIN { printf(\"%s %d %u\\n\", execname, pid, timestamp); }");
    EXPECT_FALSE(r.error) << r.error->message;
    r = compile_source("BEGIN { @[execname] = count(); printa(\"%s %@d\\n\", @); }");
    EXPECT_FALSE(r.error) << r.error->message;
}

TEST(PrintfWiring, MismatchesReportTheActionLine) {
    auto r = compile_source("BEGIN\n{\n\tprintf(\"%d\\n\", execname);\n}");
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->tag, Tag::D_PRINTF_ARG_TYPE);
    EXPECT_EQ(r.error->line, 3);
    r = compile_source("BEGIN { printf(\"%d %d\\n\", pid); }");
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->tag, Tag::D_PRINTF_ARG_PROTO);
    r = compile_source("BEGIN { printf(\"%d\\n\", pid, pid); }");
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->tag, Tag::D_PRINTF_ARG_EXTRA);
}
