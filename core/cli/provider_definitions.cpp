// provider_definitions.cpp: an installed provider definition's types (see
// provider_definitions.h).
#include "cli/provider_definitions.h"

#include "cli/source_file.h"
#include "cli/usdt_object.h"
#include "compiler/compile.h"
#include "compiler/parser.h"

namespace dtrace::cli {

namespace {

// A provider definition is a few lines a probe; a larger file is not one.
constexpr size_t kMaxDefinitionBytes = size_t(1) << 20;

} // namespace

Result<std::string> read_provider_types(const std::string &path) {
    Result<std::string> text = read_source_file(path, kMaxDefinitionBytes);
    if (!text)
        return Failure{text.reason()};
    compiler::ParseOptions parse_options;
    parse_options.from_file = true;
    parse_options.macro_args = {path};
    compiler::ParseResult parsed = compiler::parse_program(*text, parse_options);
    if (!parsed.program)
        return Failure{path + ": " + compiler::format_diagnostic(*parsed.error, false)};
    compiler::CompileResult compiled = compiler::compile(*parsed.program, compiler::CompileOptions{});
    if (!compiled.program)
        return Failure{path + ": " + compiler::format_diagnostic(*compiled.error, false)};
    if (!compiled.program->clauses.empty())
        return Failure{path + ": line " + std::to_string(compiled.program->clauses.front().line) +
                       ": a provider definition holds no probe clauses"};
    return usdt_types_table(compiled.program->providers);
}

} // namespace dtrace::cli
