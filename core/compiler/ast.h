// ast.h: the syntax tree of a D program, as the parser builds it.
//
// The tree is deliberately plain: one node struct per syntactic family
// (expression, type, declaration, statement, clause) with a kind tag and a
// few fields, rather than a class hierarchy. Passes (semantic analysis, code
// generation) switch on the kind. Semantic analysis annotates expression
// nodes in place (`sema` fields); the parser leaves them empty.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dtrace::compiler {

struct TypeName;
struct Declaration;
struct Type; // the semantic type (types.h); owned by the type system

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

enum class ExprKind : uint8_t {
    IntLiteral,     // int_value, int_suffix
    CharLiteral,    // int_value (the character's value), text (as written, for messages)
    StringLiteral,  // text (escapes already decoded)
    Identifier,     // text; `mod`sym (backquoted) identifiers: scoped, module = text before the last backquote
    AggregationRef, // text = name without '@' ("" for the anonymous @); args = keys of @a[k1, k2]
    Unary,          // op, args[0]
    Postfix,        // op (Inc/Dec), args[0]
    Binary,         // op, args[0] op args[1] (includes assignments and the comma operator)
    Ternary,        // args[0] ? args[1] : args[2]
    Cast,           // (type_name) args[0]
    Sizeof,         // sizeof(type_name) when type_name, else sizeof args[0]
    Offsetof,       // offsetof(type_name, member = text)
    Stringof,       // stringof args[0]
    Xlate,          // xlate <type_name> (args[0])
    Call,           // text = function name; args = arguments
    Index,          // args[0][args[1], args[2], ...]
    Member,         // args[0].text or args[0]->text (op = Arrow); self->x and this->x too
};

enum class Op : uint8_t {
    None,
    // unary
    Plus,
    Minus,
    LogNot,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    // postfix
    PostInc,
    PostDec,
    // binary
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogXor,
    LogOr,
    Assign,
    MulAssign,
    DivAssign,
    ModAssign,
    AddAssign,
    SubAssign,
    ShlAssign,
    ShrAssign,
    AndAssign,
    XorAssign,
    OrAssign,
    Comma,
    // member access
    Dot,
    Arrow,
};

// Integer literal suffixes, as written (u, l, ul, ll, ull...).
enum class IntSuffix : uint8_t { None, U, L, UL, LL, ULL };

struct Expr {
    ExprKind kind;
    Op op = Op::None;
    // The line DTrace gives the node: for operators whose end the grammar
    // only knows by looking at the next token, that token's line.
    int line = 0;
    uint64_t int_value = 0;
    IntSuffix int_suffix = IntSuffix::None;
    bool int_from_octal_or_hex = false; // C's rules for the type of a literal differ for these
    std::string text;
    std::string module; // for `mod`sym identifiers
    // Written with a backquote. module is then "" for `sym (any kernel module)
    // and ends with '`' for user symbols (mod``sym, ``sym), as DTrace reads them.
    bool scoped = false;
    std::vector<ExprPtr> args;
    std::unique_ptr<TypeName> type_name;

    // Filled by semantic analysis.
    const Type *sema_type = nullptr;
};

// ---- types and declarations --------------------------------------------

enum class StorageClass : uint8_t { None, Auto, Register, Static, Extern, Typedef, Self, This, Inline };

// A base type as the declaration specifiers name it.
struct TypeSpecifier {
    enum class Kind : uint8_t {
        Builtin,     // keywords in `words` ("unsigned", "long", "long", "int"...)
        TypedefName, // name (possibly scoped: module`name); D's `string` keyword is TypedefName "string"
        Struct,
        Union,
        Enum,
    };
    Kind kind = Kind::Builtin;
    std::vector<std::string> words;
    std::string name;                                  // typedef name, or struct/union/enum tag ("" when anonymous)
    std::string module;                                // for `mod`type scoped names
    bool has_body = false;                             // struct/union/enum with { ... }
    std::vector<std::unique_ptr<Declaration>> members; // struct/union members
    std::vector<std::pair<std::string, ExprPtr>> enumerators; // enum: name = optional value
    int line = 0;
};

struct DeclSpecifiers {
    StorageClass storage = StorageClass::None;
    bool is_const = false, is_volatile = false, is_restrict = false;
    bool is_userland = false; // D's `userland` type attribute
    TypeSpecifier type;
};

struct Parameter;

// One step of a declarator, outermost first as C reads it: for `int *a[4]`
// the steps are Array(4) then Pointer.
struct DeclaratorStep {
    enum class Kind : uint8_t { Pointer, Array, Function };
    Kind kind = Kind::Pointer;
    bool is_const = false, is_volatile = false, is_restrict = false; // pointer qualifiers
    ExprPtr array_size;                                              // Array: the size expression, or null for []
    // Array: D's [type, type] associative form. A key may carry a parameter
    // name (inline arrays: `inline int a[int x] = ...`) in declarator.name.
    std::vector<std::unique_ptr<TypeName>> array_key_types;
    std::vector<std::unique_ptr<Parameter>> params; // Function
    bool varargs = false;                           // Function (or associative Array): ... was written
};

struct Declarator {
    std::string name; // empty for abstract declarators
    std::vector<DeclaratorStep> steps;
    ExprPtr bitfield_width; // struct members only
    int line = 0;
};

struct TypeName {
    DeclSpecifiers specifiers;
    Declarator declarator; // abstract (no name)
    int line = 0;
};

struct Parameter {
    DeclSpecifiers specifiers;
    Declarator declarator;
};

// A declaration: specifiers followed by zero or more declarators, each with
// an optional initializer (D allows these only for inline).
struct Declaration {
    DeclSpecifiers specifiers;
    std::vector<Declarator> declarators;
    std::vector<ExprPtr> initializers; // parallel to declarators; null when absent
    int line = 0;
};

// translator output-type < input-type name > { member = expr; ... };
struct Translator {
    std::unique_ptr<TypeName> output_type;
    std::unique_ptr<TypeName> input_type;
    std::string input_name;
    std::vector<std::pair<std::string, ExprPtr>> members;
    int line = 0;
};

// ---- statements and clauses ---------------------------------------------

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

struct Stmt {
    enum class Kind : uint8_t { Expr, Block, If, Empty };
    Kind kind = Kind::Empty;
    ExprPtr expr;              // Expr: the expression; If: the condition
    std::vector<StmtPtr> body; // Block: statements; If: [then, else?]
    int line = 0;
};

// A probe description (e.g. "syscall::read:entry", "BEGIN", "profile-97",
// possibly with globs). `text` is the description as written with its macro
// variables ($1, $target...) expanded; the four fields are split from the
// right as DTrace does (empty when not given). A description written as a
// number names a probe by id.
struct ProbeSpecifier {
    std::string text;
    int line = 0;
    std::string provider, module, function, name;
    bool by_id = false;
    uint32_t probe_id = 0;
};

struct ProbeClause {
    std::vector<ProbeSpecifier> probes;
    ExprPtr predicate; // null when absent
    std::vector<StmtPtr> statements;
    bool has_body = false; // `BEGIN` alone (no braces) is a clause with the default action
    int line = 0;          // the line of the first probe description
};

// #pragma D <name> <args...>. The parser hands on the pragmas that act on
// the compilation: option (one argument, "name" or "name=value" as written),
// attributes, binding and depends_on (their arguments as written, strings
// decoded). It applies #line / # N "file" itself, ignores #ident, and turns
// #error into a diagnostic.
struct Pragma {
    std::string name; // option, attributes, binding, depends_on
    std::vector<std::string> args;
    int line = 0;
};

// provider name { probe p(native types) [: (translated types)]; ... };
// (USDT provider definitions, for -h / -G).
struct ProviderProbe {
    std::string name; // as written (DTrace turns "__" into "-")
    std::vector<std::unique_ptr<Parameter>> params;
    bool params_varargs = false;
    bool has_xlated = false; // a ": (...)" translated argument list was given
    std::vector<std::unique_ptr<Parameter>> xlated_params;
    bool xlated_varargs = false;
    int line = 0;
    std::string shown_name; // as DTrace names it: each "__" becomes "-"
};

struct ProviderDef {
    std::string name;
    std::vector<ProviderProbe> probes;
    int line = 0;
};

struct TopLevel {
    enum class Kind : uint8_t { Clause, Declaration, Translator, Pragma, Provider };
    Kind kind;
    std::unique_ptr<ProbeClause> clause;
    std::unique_ptr<Declaration> declaration; // also `inline` definitions (storage Inline)
    std::unique_ptr<Translator> translator;
    std::unique_ptr<Pragma> pragma;
    std::unique_ptr<ProviderDef> provider;
};

struct ProgramAst {
    std::vector<TopLevel> items;
    // The file named by the last #line / # N "file" directive, if any:
    // DTrace reports errors found after parsing against it.
    std::string file_tag;
};

} // namespace dtrace::compiler
