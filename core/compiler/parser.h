// parser.h: the D front end's entry point: D source text in, the syntax
// tree of ast.h out, or the error DTrace would report.
//
// parse_program() lexes and parses a whole program the way DTrace's
// dt_lex.l and dt_grammar.y do: the same tokens, the same grammar, the same
// error tags, messages and line numbers (see lexer.h and parser_impl.h for
// how). It checks what DTrace checks while parsing that needs no type
// information (literal ranges, declaration specifier combinations, probe
// description macros, pragma shapes); everything that needs types or names
// of functions and variables is left to semantic analysis.
#pragma once

#include "compiler/ast.h"
#include "compiler/diagnostic.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::compiler {

// The field a probe description with fewer than four fields ends with:
// the name for programs and dtrace -n; provider, module or function for
// dtrace -P, -m and -f.
enum class ProbeSpecKind : uint8_t { Provider, Module, Function, Name };

struct ParseOptions {
    std::vector<std::string> macro_args;           // $0 (script name), $1, $2 ... as given on the command line
    std::map<std::string, std::string> macro_vars; // "pid" -> "1234", "target", "ppid", "uid", "gid", "euid", ...
    bool default_args = false;                     // -x defaultargs: unset $n reads as 0 / ""
    // The program is a script file (dtrace -s) rather than a command-line
    // string (-n/-P/-m/-f/-i). DTrace is stricter with files: a probe
    // description must be followed by a predicate or actions, and a word at
    // the outer level that names a type begins a declaration. (For strings
    // DTrace also prints no line numbers: callers drop Diagnostic::line.)
    bool from_file = false;
    ProbeSpecKind probe_spec = ProbeSpecKind::Name;
    // Type names beyond D's built-in ones and the program's typedefs (for
    // instance those of loaded D libraries), so that `(foo_t)x` is a cast.
    std::function<bool(std::string_view)> is_type_name;
    // -x argref: the last macro argument need not be referenced (else D_MACRO_UNUSED).
    bool allow_unreferenced_args = false;
    // -x empty: a program with no clauses or declarations compiles (else D_EMPTY).
    bool allow_empty = false;
    // Sets the option of a `#pragma D option name[=value]` when the pragma
    // is read, as DTrace does (so it holds for the rest of the program);
    // returns why the option could not be set (D_PRAGMA_OPTSET).
    std::function<std::optional<std::string>(const std::string &name, const std::optional<std::string> &value)>
        set_option;
};

struct ParseResult {
    std::optional<ProgramAst> program;
    std::optional<Diagnostic> error;
    std::vector<int> referenced_macro_args; // the n of every $n / $$n used, ascending
};

ParseResult parse_program(std::string_view source, const ParseOptions &opts);

} // namespace dtrace::compiler
