// sema.h: semantic analysis, DTrace's "cook" pass, over one program.
//
// Sema walks the AST clause by clause, in program order (a variable is
// created by the first statement that assigns it, as in DTrace), and builds
// the typed tree of sema_tree.h. It reports errors with DTrace's tags and
// messages. The implementation is split by concern:
//   sema_fold.cpp     integer constants: literal types, folding, casts of constants
//   sema_vars.cpp     identifiers, self->/this->, associative arrays, args[] (string args[] read by copyinstr)
//   sema_symbols.cpp  the program's variable and aggregation tables
//   sema_ops.cpp      unary, binary, ternary, cast, sizeof, stringof operators
//   sema_assign.cpp   assignment, compound assignment, ++ and --
//   sema_call.cpp     subroutine calls and prototype checking
//   sema_clause.cpp   clauses, statements and the actions trace(), printf() ...
//   sema_agg.cpp      aggregations: @name[keys] = func(args)
//   sema_library.cpp  the actions the consumer carries out (clear, trunc, normalize ...)
//   sema_memory.cpp   tracemem() and print(), the actions that record memory
//   sema_record.cpp   the actions that record a stack or an address to name later
//   sema_split.cpp    the parts of a clause split at its if statements
//   sema_decl.cpp     declarations and type names
//   sema_xlate.cpp    translators, xlate, translated args[]
//   sema_messages.cpp how errors are raised, how operators and types are named in them
// Errors are raised as CompileError and turned into a Diagnostic by compile().
#pragma once

#include "compiler/clause_split.h"
#include "compiler/compile.h"
#include "compiler/sema_tree.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace dtrace::compiler {

struct CompileError {
    Diagnostic diag;
};

[[noreturn]] void raise_error(Tag tag, int line, std::string message);
// A construct this implementation does not compile yet.
[[noreturn]] void raise_unsupported(int line, const std::string &what);

// A provider defined again must declare the probes it declared before with
// the same prototypes (D_PROV_INCOMPAT; sema_provider.cpp).
void check_provider_redeclaration(const ProviderInterface &previous, const ProviderInterface &current);

// The D variable whose storage an lvalue lies in: the variable itself, or
// v.m, v.a[i], v.m.a[i] ... (not through a pointer); null for other lvalues.
const Node *storage_variable(const Node &lvalue);

// The actions that record a stack or an address the consumer names.
bool records_names(const BuiltinIdent &b);
// What printf()/printa() checks see of stack, _symaddr and _usymaddr.
std::optional<ArgTypeInfo::Kind> recorded_kind(const Type *t);

// DTrace's reference flags: how the expression being analysed uses a variable.
enum RefFlags : unsigned { kNoRef = 0, kRef = 1, kMod = 2 };

// D's NULL, an integer constant every program has (inline long NULL = 0).
inline constexpr const char *kNullName = "NULL";

// The regions DTrace names in errors found while cooking a clause.
inline constexpr const char *kRegionActions = "action list";
inline constexpr const char *kRegionPredicate = "predicate";

// Runs f(), giving an error it raises without a region this one (but for a
// description that matches nothing, which DTrace finds before cooking).
template <typename F> void in_region(const char *region, F &&f) {
    try {
        f();
    } catch (CompileError &err) {
        if (err.diag.region.empty() && err.diag.tag != Tag::D_PDESC_ZERO)
            err.diag.region = region;
        throw;
    }
}

class Sema {
  public:
    Sema(TypeTable &types, Symbols &symbols, const CompileOptions &opts);

    SemaClause clause(const ProbeClause &c);
    // One part of a clause that has if statements (clause_split.h).
    SemaClause clause_part(const ProbeClause &c, const ClausePart &part);
    void declare(const Declaration &d);
    void declare_translator(const Translator &t);
    const Type *type_of(const TypeName &tn);
    // A `provider` definition's probes with their argument types
    // (sema_provider.cpp); D_PROV_PRDUP, D_PROV_PRARGLEN.
    ProviderInterface provider_interface(const ProviderDef &def);
    // The constants defined so far are the standard library's predefined
    // names (standard_library.h), which a program's own definition replaces.
    void seal_predefined();
    // Whether `name` is a global identifier: a builtin variable, an inline
    // or constant, or a global variable.
    bool defines_global(const std::string &name) const;
    // An operator as DTrace's messages spell it ("+", "->", "<<=").
    static std::string op_name(Op op);

  private:
    // A name bound to a value while an expression is analysed: a
    // translator's input, an inline array's parameter.
    struct XlateParam {
        std::string name;
        const Type *type;
        uint32_t id;
    };
    struct Inline {
        const Type *type;
        const Expr *expr;
        std::vector<XlateParam> params; // an inline array's (`inline int a[int i] = ...`), ids unused
    };

    // Expressions (dispatch in sema_ops.cpp).
    NodePtr cook(const Expr &e, unsigned flags);

    // sema_fold.cpp
    NodePtr int_literal(const Expr &e);
    NodePtr make_const(uint64_t value, const Type *type, int line) const;
    static uint64_t cast_constant(uint64_t value, const Type *from, const Type *to);
    NodePtr fold_unary(Op op, NodePtr child, int line);
    std::optional<uint64_t> fold_binary(Op op, const Node &l, const Node &r, const Type *&type) const;

    // sema_vars.cpp
    NodePtr cook_ident(const Expr &e, unsigned flags);
    NodePtr cook_member(const Expr &e, unsigned flags);
    NodePtr cook_index(const Expr &e, unsigned flags);
    NodePtr cook_aggref(const Expr &e);
    NodePtr var_node(UserVar *v, int line, unsigned flags);
    void use_var(UserVar *v, int line, unsigned flags);
    NodePtr args_elem(const Expr &e, const BuiltinIdent &b);
    // pmc["name"]: a plugin's counter (sema_counters.cpp).
    NodePtr counter_elem(const Expr &e);
    UserVar *scoped_var(const Expr &member, bool create);
    void check_signature(std::vector<const Type *> &keys, bool &has_signature, const std::vector<NodePtr> &args,
                         const std::string &prefix, const std::string &name, const char *kind_name, int line);
    NodePtr resolve_global(const Expr &e, unsigned flags, bool create);
    NodePtr kernel_symbol(const Expr &e);
    NodePtr index_as_pointer(const Expr &e, unsigned flags);
    std::vector<NodePtr> cook_list(const std::vector<ExprPtr> &args, size_t from = 0);

    // sema_ops.cpp
    NodePtr cook_unary(const Expr &e);
    NodePtr cook_binary(const Expr &e);
    NodePtr cook_arith(Op op, int line, NodePtr l, NodePtr r);
    NodePtr cook_logical(Op op, int line, NodePtr l, NodePtr r);
    NodePtr cook_compare(const Expr &e, NodePtr l, NodePtr r);
    NodePtr cook_ternary(const Expr &e);
    NodePtr cook_cast(const Expr &e);
    NodePtr cook_sizeof(const Expr &e);
    NodePtr cook_stringof(const Expr &e);
    NodePtr cook_offsetof(const Expr &e);
    NodePtr cook_deref(int line, NodePtr child);
    NodePtr cook_addrof(int line, NodePtr child);
    bool arg_compatible(const Type *param, const Node &arg) const;
    bool ptr_compatible(const Type *l, bool l_zero, const Type *r, bool r_zero, const Type **out) const;
    static bool is_zero_const(const Node &n) { return n.kind == NodeKind::Const && n.value == 0; }

    // sema_assign.cpp
    NodePtr cook_assign(const Expr &e);
    NodePtr cook_compound(const Expr &e);
    NodePtr cook_incdec(const Expr &e);
    NodePtr cook_lvalue_target(const Expr &e, const char *op, bool create_int64);
    void check_writable(const Node &lhs, const char *op, int line) const;

    // sema_call.cpp
    NodePtr cook_call(const Expr &e);
    const BuiltinIdent &lookup_function(const Expr &call);
    std::vector<NodePtr> cook_call_args(const Expr &call, const BuiltinIdent &b);
    void check_prototype(const Signature &sig, const std::string &name, const std::vector<NodePtr> &args,
                         const std::string &prefix, const std::string &suffix, int line) const;
    const Signature &signature(const BuiltinIdent &b, int line);

    // sema_memory.cpp
    void finish_tracemem(SemaAction &a);
    void finish_print(SemaAction &a);

    // sema_record.cpp
    SemaAction cook_recording_action(const Expr &call);
    NodePtr recorded(NodePtr value);

    // sema_clause.cpp
    void enter_clause(const std::vector<ProbeSpecifier> &probes, int line, SemaClause &out);
    void cook_statements(const std::vector<StmtPtr> &stmts, std::vector<SemaAction> &out);
    void cook_statement(const Stmt &s, std::vector<SemaAction> &out);
    SemaAction cook_action_call(const Expr &call, const BuiltinIdent &b);
    SemaAction cook_plugin_action(const Expr &call, const PluginActionInfo &action);
    SemaAction cook_aggregation(const Expr &assign);
    NodePtr cook_predicate(const Expr &pred);
    // The checks DTrace makes when it builds each action, after cooking.
    void finish_actions(std::vector<SemaAction> &actions);
    void finish_action(SemaAction &a);
    void finish_printf(SemaAction &a);
    void finish_freopen(SemaAction &a);
    void finish_printa(SemaAction &a);
    // sema_library.cpp
    void finish_library_action(SemaAction &a);
    void finish_aggregation(SemaAction &a);
    void finish_lquantize(SemaAction &a);
    void finish_llquantize(SemaAction &a);

    // sema_split.cpp
    NodePtr hidden_ref(dif::Scope scope, const std::string &name, int line);
    NodePtr hidden_assign(dif::Scope scope, const std::string &name, NodePtr value, int line);
    NodePtr error_flag_clear(int line);
    SemaAction expression_action(NodePtr value);

    // sema_xlate.cpp
    struct TranslatorDef {
        const Type *output = nullptr; // the struct or union (as declared)
        const Type *input = nullptr;
        const Translator *ast = nullptr; // the input's name and the members' expressions
    };
    NodePtr xlate_param(const std::string &name, int line);
    const TranslatorDef *find_translator(const Node &input, const Type *output, bool exact) const;
    NodePtr cook_translator_member(const TranslatorDef &x, const Expr &value, uint32_t id);
    NodePtr translated(const TranslatorDef &x, NodePtr input, bool pointer, int line);
    bool translates_to(const Node &xlated, const Type *to) const;
    NodePtr cook_xlate(const Expr &e);
    NodePtr cook_translated_member(const Expr &e, NodePtr base);
    NodePtr translated_copy(NodePtr xlated, int line);
    NodePtr translated_arg(NodePtr arg, const Type *native, const Type *xlated, int64_t index, int line);
    NodePtr string_arg(NodePtr arg, int line);

    // sema_decl.cpp
    const Type *decl_type(const DeclSpecifiers &spec, const Declarator &d, int line);
    const Type *base_type(const TypeSpecifier &spec, int line);
    void define_members(Type *sou, const TypeSpecifier &spec, int line);
    void define_enum(Type *e, const TypeSpecifier &spec, int line);
    void declare_variable(const DeclSpecifiers &spec, const Declarator &d, int line);
    void declare_extern(const std::string &name, const Type *type, int line);
    void declare_inline(const DeclSpecifiers &spec, const Declarator &d, const Expr *init, int line);
    NodePtr cook_inline(const Inline &in, int line, std::vector<NodePtr> args);
    NodePtr inline_elem(const Expr &e, const Inline &in);
    // Forgets the standard library's definition of `name`, if it has one and
    // the program has not yet defined the name itself; says whether it did.
    bool yield_predefined(const std::string &name);

    // Messages.
    std::string type_name(const Type *t) const { return TypeTable::name_of(t); }
    std::string node_type_name(const Node &n) const;
    static std::string args_passed(size_t n); // "1 arg " / "2 args ", as D_PROTO_LEN messages put it

    TypeTable &types_;
    Symbols &symbols_;
    const CompileOptions &opts_;
    std::map<std::string, Signature> signatures_;
    // Named integer constants: enumerators and inlines whose value is constant.
    std::map<std::string, std::pair<int64_t, const Type *>> constants_;
    std::map<std::string, Inline> inlines_;
    std::set<std::string> predefined_; // see seal_predefined()
    // The extern declarations' symbols, by name (declare_extern), and the
    // module DTrace names them by in messages.
    std::map<std::string, const Type *> externs_;
    static constexpr const char *kDefinitionsModule = "D";
    std::vector<TranslatorDef> translators_;
    std::vector<XlateParam> xlate_params_; // translator inputs in scope, innermost last
    uint32_t next_xlate_id_ = 0;

    // The clause being analysed (probes_ is null outside of any clause).
    const std::vector<std::string> *probes_ = nullptr;
    std::string probe_desc_; // the first description as DTrace prints it: "provider:module:function:name"
    int clause_line_ = 0;
    std::optional<ProbeArgTypes> probe_args_;
    bool probe_args_fetched_ = false;
};

} // namespace dtrace::compiler
