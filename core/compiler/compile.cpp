// compile.cpp: the compiler's entry point (see compile.h).
//
// Clauses are analysed and generated one at a time in program order, as
// DTrace does, so that each clause sees the variables and aggregations the
// clauses before it created; a clause with if statements is split into
// parts first (clause_split.h). The D libraries come before the program, as
// DTrace loads its libraries before compiling a program. Errors raised
// anywhere below (CompileError) end here as the result's Diagnostic.
#include "compiler/compile.h"

#include "compiler/standard_library.h"

#include "compiler/builtins.h"
#include "compiler/codegen_program.h"
#include "compiler/parser.h"
#include "compiler/pragma_targets.h"
#include "compiler/sema.h"

#include <algorithm>

namespace dtrace::compiler {

namespace {

// depends_on: a provider or module that is missing fails the program. A
// library dependency belongs to D library files (-L, which the CLI orders
// by these pragmas before compiling them: cli/library_dirs.h), so a main
// program naming one is refused as DTrace refuses it.
void check_dependency(const Pragma &p, const CompileOptions &options) {
    const std::string &kind = p.args.at(0);
    const std::string &name = p.args.at(1);
    if (kind == "library")
        raise_error(Tag::D_PRAGMA_DEPEND, p.line, "main program may not explicitly depend on a library");
    if (!options.dependency_present || !options.dependency_present(kind, name))
        raise_error(Tag::D_PRAGMA_DEPEND, p.line, "program requires " + kind + " " + name);
}

void add_pragma(const Pragma &p, Program &prog, const CompileOptions &options) {
    if (p.name == "depends_on")
        check_dependency(p, options);
    if (p.name != "option")
        return; // attributes, binding: stability and versions are not modelled
    for (const auto &arg : p.args) {
        auto eq = arg.find('=');
        if (eq == std::string::npos)
            prog.pragma_options.emplace_back(arg, "");
        else
            prog.pragma_options.emplace_back(arg.substr(0, eq), arg.substr(eq + 1));
    }
}

// A clause, or the parts of one with if statements (clause_split.h). As in
// DTrace, the clause that sets the error flag comes first, once per program,
// and only when a split gives more than one part.
void add_clause(const ProbeClause &c, Sema &sema, const TypeTable &types, bool &error_flag_set, Program &prog) {
    if (!has_if(c)) {
        prog.clauses.push_back(generate_clause(sema.clause(c), types));
        return;
    }
    std::vector<ClausePart> parts = split_clause(c);
    if (!error_flag_set && parts.size() > 1) {
        error_flag_set = true;
        prog.clauses.push_back(generate_clause(sema.clause_part(c, ClausePart{ClausePart::Kind::SetErrorFlag}), types));
    }
    for (const ClausePart &part : parts)
        prog.clauses.push_back(generate_clause(sema.clause_part(c, part), types));
}

ParseResult parse_library(const LibrarySource &lib, std::function<bool(std::string_view)> is_type_name) {
    ParseOptions po;
    po.from_file = true;
    po.is_type_name = std::move(is_type_name);
    return parse_program(lib.second, po);
}

// Runs f(), naming the library in the diagnostic of an error it raises.
template <typename F> void in_library(const LibrarySource &lib, F &&f) {
    try {
        f();
    } catch (CompileError &err) {
        if (err.diag.file.empty())
            err.diag.file = lib.first;
        throw;
    }
}

// Libraries bring declarations, inlines and translators. Their syntax trees
// must outlive compilation (translators keep their member expressions): they
// are kept in `trees`.
void compile_libraries(const std::vector<LibrarySource> &libs, Sema &sema, const TypeTable &types,
                       std::vector<ProgramAst> &trees) {
    auto known_type = [&types](std::string_view name) { return types.is_declared_typedef(std::string(name)); };
    for (const LibrarySource &lib : libs) {
        in_library(lib, [&] {
            ParseResult parsed = parse_library(lib, known_type);
            if (!parsed.program)
                throw CompileError{*parsed.error};
            trees.push_back(std::move(*parsed.program));
            for (const auto &item : trees.back().items) {
                switch (item.kind) {
                case TopLevel::Kind::Declaration:
                    sema.declare(*item.declaration);
                    break;
                case TopLevel::Kind::Translator:
                    sema.declare_translator(*item.translator);
                    break;
                case TopLevel::Kind::Pragma: // depends_on and the like: nothing to check here
                    break;
                case TopLevel::Kind::Clause:
                    raise_error(Tag::D_UNKNOWN, item.clause->line, "a D library may not contain probe clauses");
                case TopLevel::Kind::Provider:
                    raise_unsupported(item.provider->line, "provider definitions");
                }
            }
        });
    }
}

} // namespace

Compiler::Compiler(CompileOptions opts)
    : opts_(std::move(opts)), types_(std::make_shared<TypeTable>(opts_.strsize)), symbols_(std::make_unique<Symbols>()),
      sema_(std::make_unique<Sema>(*types_, *symbols_, opts_)) {
    try {
        compile_libraries({standard_library()}, *sema_, *types_, library_trees_);
        sema_->seal_predefined();
        compile_libraries(opts_.library_sources, *sema_, *types_, library_trees_);
    } catch (CompileError &err) {
        library_error_ = std::move(err.diag);
    }
    // Names the plugins describe join the table on first use, after the D
    // libraries: what a library declares (umode_t, struct in_addr) is D's
    // own, not a plugin's type of the same name (BTF knows them all).
    if (opts_.resolve_type) {
        types_->set_resolver([this](const std::string &name) {
            std::optional<TypeGraph> graph = opts_.resolve_type(name);
            return graph && import_type_graph(*types_, *graph) != nullptr;
        });
    }
}

Compiler::~Compiler() = default;

bool Compiler::is_type_name(std::string_view name) const {
    // D's own identifiers (exit, count, execname) can never name a type:
    // the plugins' types (BTF: a file to read) are not asked about them.
    if (find_builtin(name) != nullptr)
        return false;
    return types_->is_declared_typedef(std::string(name));
}

CompileResult Compiler::compile(const ProgramAst &ast) {
    if (library_error_)
        return {std::nullopt, library_error_};
    Program prog;
    bool error_flag_set = false;
    try {
        check_pragma_targets(ast, [this](const std::string &name) { return sema_->defines_global(name); });
        for (const auto &item : ast.items) {
            switch (item.kind) {
            case TopLevel::Kind::Clause:
                add_clause(*item.clause, *sema_, *types_, error_flag_set, prog);
                break;
            case TopLevel::Kind::Declaration:
                sema_->declare(*item.declaration);
                break;
            case TopLevel::Kind::Pragma:
                add_pragma(*item.pragma, prog, opts_);
                break;
            case TopLevel::Kind::Translator:
                sema_->declare_translator(*item.translator);
                break;
            case TopLevel::Kind::Provider:
                declare_provider(*item.provider, prog);
                break;
            }
        }
    } catch (CompileError &err) {
        if (err.diag.line != 0 && err.diag.file.empty())
            err.diag.file = ast.file_tag;
        return {std::nullopt, std::move(err.diag)};
    }
    // The aggregations and variables of the earlier programs are this one's
    // too: the engine knows an aggregation by its name, a variable by its id.
    for (const auto &a : symbols_->aggs())
        if (a.has_func)
            prog.aggregations.push_back(aggregation_decl(a, opts_.strsize));
    adopt_recorded_keys(prog);
    for (const auto &v : symbols_->vars())
        if (v.type && !is_dynamic(v.type))
            prog.variables.push_back(
                dif::Variable{v.id, v.scope, v.is_array, type_desc(v.type, opts_.strsize), v.name});
    prog.types = types_;
    return {std::move(prog), std::nullopt};
}

// A provider defined again in this run must match its earlier definition.
void Compiler::declare_provider(const ProviderDef &def, Program &prog) {
    ProviderInterface provider = sema_->provider_interface(def);
    auto earlier = std::find_if(providers_.begin(), providers_.end(),
                                [&](const ProviderInterface &p) { return p.name == provider.name; });
    if (earlier != providers_.end())
        check_provider_redeclaration(*earlier, provider);
    else
        providers_.push_back(provider);
    prog.providers.push_back(std::move(provider));
}

void Compiler::update_limits(const CompileOptions &from) {
    opts_.errtags = from.errtags;
    opts_.strsize = from.strsize;
    opts_.stackframes = from.stackframes;
    opts_.ustackframes = from.ustackframes;
    opts_.jstackframes = from.jstackframes;
    types_->set_strsize(from.strsize);
}

CompileResult compile(const ProgramAst &ast, const CompileOptions &opts) {
    return Compiler(opts).compile(ast);
}

} // namespace dtrace::compiler
