// compile.h: the compiler's entry point, from the parser's AST to the
// program the engine runs (program.h).
//
// compile() runs semantic analysis over every clause in order (DTrace's
// "cook" pass: types, name resolution, DTrace's checks and error messages)
// and then generates one DIF object per predicate, action argument and
// aggregation key. The first error stops compilation and is returned as a
// Diagnostic. Knowledge the compiler does not own (the argument types of the
// probes a clause matches, printf format checking) comes in through hooks in
// CompileOptions so that this library depends on nothing but dtrace_dif.
#pragma once

#include "compiler/ast.h"
#include "compiler/diagnostic.h"
#include "compiler/external_types.h"
#include "compiler/program.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::compiler {

// The D type of a printf()/printa() argument, as format checking needs it
// (the kinds are those of the consumer's ArgType, so wiring is one switch).
struct ArgTypeInfo {
    // Stack, SymAddr, USymAddr: the types of stack(), sym() and usym() and their kin.
    enum class Kind : uint8_t { Integer, Pointer, String, CharArray, Float, Struct, Stack, SymAddr, USymAddr };
    Kind kind = Kind::Integer;
    uint32_t size = 0; // bytes
    bool is_signed = false;
    std::string type_name; // as DTrace prints it: "int", "uint64_t", "string", "char *"
};

// What the args[] hook answers for a clause's probe descriptions.
struct ProbeArgTypes {
    std::vector<std::string> types;  // D type names of args[0..n-1], e.g. "int", "const char *"
    std::optional<Diagnostic> error; // set when the descriptions cannot be typed
    // The native type (the plugin's argN type) each args[i] comes from, when
    // it is translated: types[i] is then the translated type, and args[i]
    // is the provider translator's output for the native argument. Parallel
    // to `types`; may be shorter, and "" means not translated.
    std::vector<std::string> native_types;
};

// A D library: a name for messages and its source. Providers ship their
// types, inlines and translators this way (dtrace_provider_info.d_source).
using LibrarySource = std::pair<std::string, std::string>;

// A function a plugin added to D (a plugin action): the host's id for it
// and its prototype, in the builtins' syntax ("void(string, ...)").
struct PluginActionInfo {
    uint32_t id = 0;
    std::string prototype;
};

// A counter a plugin lets D read (pmc["page-faults"]): the host's id for
// it, or why it cannot be read (unknown, not countable here, its plugin not
// loaded).
struct PluginCounter {
    uint32_t id = 0;
    std::string error; // empty: resolved
};

struct CompileOptions {
    bool errtags = false;
    uint32_t strsize = 256;
    // Frames stack(), ustack() and jstack() record when not told (the
    // stackframes, ustackframes, jstackframes options).
    uint32_t stackframes = 20, ustackframes = 20, jstackframes = 50;
    // Types of args[] for the probes a clause's descriptions match. Without
    // it, args[n] is int64_t for every n.
    std::function<ProbeArgTypes(const std::vector<std::string> &probes, int line)> probe_arg_types;
    // Whether a provider or a module ("provider", "module") that
    // `#pragma D depends_on` names is present. Without it, nothing is.
    std::function<bool(const std::string &kind, const std::string &name)> dependency_present;
    // Checks printf's format against its arguments (the consumer's
    // printf_format check_args); returns the diagnostic to report, if any.
    std::function<std::optional<Diagnostic>(const std::string &fmt, const std::vector<ArgTypeInfo> &args, int line)>
        check_printf;
    // Checks printa()'s format against the keys of the (first) aggregation;
    // `is_count` when its aggregating function is count().
    std::function<std::optional<Diagnostic>(const std::string &fmt, const std::vector<ArgTypeInfo> &keys, bool is_count,
                                            int line)>
        check_printa;
    // printa() of several aggregations: checks that @other's keys match
    // @first's (D_PRINTA_AGGKEY, D_PRINTA_AGGPROTO).
    std::function<std::optional<Diagnostic>(const std::string &first, const std::vector<ArgTypeInfo> &first_keys,
                                            const std::string &other, const std::vector<ArgTypeInfo> &other_keys,
                                            int line)>
        check_printa_keys;
    // The plugin action of a name that D does not define, if a plugin added one.
    std::function<std::optional<PluginActionInfo>(const std::string &name)> plugin_action;
    // Whether an undeclared array name is a plugin's counter array (pmc),
    // loaded or not, and the counter a string constant key names in it.
    std::function<bool(const std::string &array)> is_counter_array;
    std::function<PluginCounter(const std::string &array, const std::string &name)> resolve_counter;
    // A type nobody declared, by its D spelling ("task_t", "struct foo"):
    // what a plugin describes (lookup_type). Without it, none.
    std::function<std::optional<TypeGraph>(const std::string &name)> resolve_type;
    // A backquoted kernel symbol (`name: module ""; mod`name): its address and
    // type (lookup_kernel_symbol). Without it, every such name is unknown.
    std::function<std::optional<ExternalSymbol>(const std::string &module, const std::string &name)> resolve_symbol;
    // Compiled, in order, before the program: their declarations, inlines
    // and translators are the program's (probe clauses are not allowed).
    std::vector<LibrarySource> library_sources;
    // Of the probes a clause's descriptions match, the provider of one whose
    // events carry no memory of the traced process (fpid's hooks), if any:
    // copyin(), copyinstr() and copyinto() are refused in that clause.
    std::function<std::optional<std::string>(const std::vector<std::string> &probes)> memoryless_provider;
};

struct CompileResult {
    std::optional<Program> program;
    std::optional<Diagnostic> error;
};

class Sema;
class Symbols;
class TypeTable;

// The compiler of one dtrace run. The D libraries are compiled once, when it
// is made; then each program in turn, as DTrace compiles the programs of one
// run into one handle: a later program sees the declarations, typedefs,
// inlines, translators, variables and aggregations of the earlier ones (a
// global assigned by one -n program is known to the next). A program's syntax
// tree must outlive the Compiler (inlines and translators keep its expressions).
class Compiler {
  public:
    explicit Compiler(CompileOptions opts);
    ~Compiler();
    Compiler(const Compiler &) = delete;
    Compiler &operator=(const Compiler &) = delete;

    // Whether `name` is a typedef the parser must know (ParseOptions::is_type_name):
    // the libraries' and those of the programs compiled so far.
    bool is_type_name(std::string_view name) const;
    CompileResult compile(const ProgramAst &ast);
    // Takes the option-derived limits (errtags, strsize, the stack frames)
    // of `from` for the next programs: a program's pragmas may change them.
    void update_limits(const CompileOptions &from);

  private:
    void declare_provider(const ProviderDef &def, Program &prog);

    CompileOptions opts_;
    std::shared_ptr<TypeTable> types_;
    std::unique_ptr<Symbols> symbols_;
    std::unique_ptr<Sema> sema_;
    std::vector<ProgramAst> library_trees_;
    std::optional<Diagnostic> library_error_;  // reported by every compile()
    std::vector<ProviderInterface> providers_; // the USDT providers defined so far, first definitions
};

// One program on its own (a Compiler used once).
CompileResult compile(const ProgramAst &ast, const CompileOptions &opts);

} // namespace dtrace::compiler
