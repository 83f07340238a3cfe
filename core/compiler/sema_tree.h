// sema_tree.h: the typed tree semantic analysis hands to code generation.
//
// The parser's AST says what was written; this tree says what it means: every
// node has a resolved type, identifiers are bound to variables or builtins,
// integer constants are folded the way DTrace folds them while parsing, and
// self->x / this->x / a[k] / args[n] are distinct node kinds. As in DTrace,
// constants keep their full 64-bit values (a folded int may exceed an int's
// range), and there are no implicit conversions: code generation computes in
// 64 bits and converts only where DTrace does (see codegen_expr.h).
#pragma once

#include "compiler/ast.h"
#include "compiler/builtins.h"
#include "compiler/program.h"
#include "compiler/types.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dtrace::compiler {

// A variable the program defines (DTrace creates these on first use).
struct UserVar {
    std::string name;
    dif::Scope scope = dif::Scope::Global;
    bool is_array = false;
    uint32_t id = 0;
    const Type *type = nullptr;     // value type; null until the first assignment or declaration
    std::vector<const Type *> keys; // associative arrays: the key signature
    bool has_signature = false;
    bool referenced = false, modified = false, declared = false; // DTrace's REF/MOD/DECL flags
    int line = 0;                                                // where it was created

    // Created by this program but neither read, written nor declared yet.
    bool unref() const { return !referenced && !modified && !declared; }
};

struct Aggregation {
    uint32_t id = 0; // 1-based, in order of first appearance
    std::string name;
    bool has_func = false;
    AggFunc func = AggFunc::Count;
    std::string func_name;
    bool modified = false;
    std::vector<const Type *> keys;
    bool has_signature = false;
    std::vector<int64_t> params; // lquantize/llquantize parameters, fixed by the first use
    int line = 0;                // where it was created
};

enum class NodeKind : uint8_t {
    Const,          // value: an integer constant
    String,         // str: a string constant
    Builtin,        // id: builtin variable (dif::VarId)
    BuiltinArray,   // id: args[] or uregs[]; kids[0] = the index
    Var,            // var: a user scalar (global, self-> or this->)
    ArrayElem,      // var: a user associative array; kids = the keys
    Unary,          // op: Minus, Plus, BitNot, LogNot, AddrOf (of a Deref or Member); kids[0]
    Deref,          // *kids[0]: loads a scalar; a struct, union or array stays an address
    Member,         // the member at byte offset `value` of the struct kids[0] points at (or is, for .)
    Binary,         // op: arithmetic, bitwise or shift; kids[0], kids[1]
    Compare,        // op: Lt..Ne; kids[0], kids[1] compared signed or not as `common` says (or as strings)
    Logical,        // op: LogAnd, LogOr, LogXor; kids[0], kids[1]
    Ternary,        // kids[0] ? kids[1] : kids[2]
    Convert,        // kids[0] converted to `type` (casts, stringof)
    Assign,         // kids[0] (Var or ArrayElem) = kids[1]
    CompoundAssign, // op (the arithmetic op): kids[0] op= kids[1], signed or not as kids[0]
    IncDec,         // op: PreInc, PreDec, PostInc, PostDec; kids[0] (Var or ArrayElem)
    Call,           // id: subroutine (dif::Subr); kids = arguments; params = their types
    Comma,          // kids[0], kids[1]
    XlateInput,     // id: the input of the translation `id` (see Translate)
    Xlated,         // value: translator index; kids[0] = its input; op Arrow for xlate<T *> (dynamic type)
    Translate,      // id: a translation: kids[1] (using XlateInput `id`) with kids[0] as the input
    XlateCopy,      // id: a whole translated struct (`type`) built in scratch: kids[0] the input, kids[1..] the
                    // translated members (using XlateInput `id`), stored at `offsets`; the others are zero
    AggRef,         // agg: an aggregation named as a value (printa's arguments)
    ActCall,        // str: an action or aggregating function used as a value (an error to generate)
};

struct Node;
using NodePtr = std::unique_ptr<Node>;

struct Node {
    NodeKind kind = NodeKind::Const;
    const Type *type = nullptr;
    int line = 0;
    Op op = Op::None;
    uint64_t value = 0;
    std::string str;
    uint32_t id = 0;
    UserVar *var = nullptr;
    Aggregation *agg = nullptr;
    const Type *common = nullptr;
    std::vector<const Type *> params; // Call: parameter types (null: any)
    std::vector<NodePtr> kids;
    IdentKind act_kind = IdentKind::ActFunc; // ActCall: action or aggregating function
    // Member of a bit-field: its width, and its first bit within the bytes
    // loaded from offset `value` (0: not a bit-field).
    uint8_t bit_width = 0, bit_offset = 0;
    // Binary Add of an index into an array held in a D variable (v.a[i]):
    // the array's length, against which the index is checked at run time.
    uint64_t bound = 0;
    std::vector<uint64_t> offsets; // XlateCopy: the byte offset of each member kids[1..]
    // The value of a stack(), sym() or kin as an action or aggregation key
    // records it: how to record it and what it stands for (sema_record.cpp).
    std::optional<dif::TypeDesc> record;
    // Convert: an explicit cast to a pointer type, through which DTrace lets
    // a program store (DT_NF_WRITABLE; the store faults unless the memory is scratch).
    bool writable_cast = false;
};

// An action, in the shape program.h's Action will take.
struct SemaAction {
    ActionKind kind = ActionKind::Expression;
    int line = 0;
    NodePtr value;             // Expression, Trace, Exit: the expression
    std::vector<NodePtr> args; // Printf: arguments after the format; Aggregate: keys
    std::string format;
    bool has_format = false;
    Aggregation *agg = nullptr;    // Aggregate
    std::vector<NodePtr> agg_args; // Aggregate: value (and increment)
    std::vector<Aggregation *> printa_aggs;
    LibraryAction library = LibraryAction::Clear; // Library (agg: the aggregation it acts on)
    uint32_t plugin_action = 0;                   // Plugin
    // Before finish_action(): the action's cooked arguments and, for an
    // aggregation, the aggregating function called.
    std::vector<NodePtr> call_args;
    const BuiltinIdent *fn = nullptr;
    int fn_line = 0;
};

struct SemaClause {
    std::vector<std::string> probes;
    NodePtr predicate;
    std::vector<SemaAction> actions;
    int line = 0;
};

// The program's variables and aggregations. Element addresses are stable
// (deques), and the state can be saved and restored, which clause analysis
// needs when it retries a clause with the predicate analysed first.
class Symbols {
  public:
    UserVar *find(dif::Scope scope, const std::string &name);
    UserVar *create(dif::Scope scope, const std::string &name, bool is_array, int line);
    Aggregation *find_agg(const std::string &name);
    Aggregation *create_agg(const std::string &name, int line);

    const std::deque<UserVar> &vars() const { return vars_; }
    const std::deque<Aggregation> &aggs() const { return aggs_; }

    struct Snapshot {
        std::vector<UserVar> vars;
        std::vector<Aggregation> aggs;
    };
    Snapshot save() const;
    void restore(const Snapshot &s);

  private:
    void reindex();
    std::deque<UserVar> vars_;
    std::deque<Aggregation> aggs_;
    std::map<std::pair<dif::Scope, std::string>, UserVar *> var_index_;
    std::map<std::string, Aggregation *> agg_index_;
    uint32_t next_id_[3] = {0, 0, 0};
};

} // namespace dtrace::compiler
