// program.h: what the compiler hands to the engine.
//
// A D program compiles to clauses; each clause to an optional predicate and a
// list of actions, each action carrying the DIF objects it evaluates. This is
// the shape DTrace itself uses (an enabling is a list of action descriptions
// each with its own DIFO): recording actions then have a fixed record layout
// per action, which the consumer reads back without re-parsing anything.
// Clause-local variables (this->) live across the DIFOs of one clause.
#pragma once

#include "compiler/predicate_filter.h"
#include "dif/difo.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dtrace::compiler {

struct Type;
class TypeTable;

enum class AggFunc : uint8_t { Count, Sum, Avg, Min, Max, Stddev, Quantize, Lquantize, Llquantize };

struct AggregationDecl {
    uint32_t id = 0;  // 1-based, in order of first appearance in the program
    std::string name; // without '@'; "" for the anonymous aggregation
    AggFunc func = AggFunc::Count;
    std::vector<dif::TypeDesc> key_types;
    // Constant parameters: lquantize (lo, hi, step); llquantize (factor, lo, hi, steps).
    std::vector<int64_t> params;
    int line = 0;
};

enum class ActionKind : uint8_t {
    Expression, // evaluated for its side effects only (assignments, ++)
    Trace,      // records `value`
    Printf,     // records `args` formatted by `format`
    Printa,     // prints aggregations `printa_aggs` with optional `format`
    Exit,       // records `value` as the exit status and ends the session
    Aggregate,  // @agg[args...] = func(agg_args...)
    Default,    // a clause with no actions: records nothing, prints the probe line
    // Speculation (engine/speculation.h): `value` is the speculation id.
    Speculate, // the rest of the clause records into the speculation's buffer
    Commit,
    Discard,
    // Program control and destructive actions (action_traits.h says which need -w).
    Freopen,   // records `args` formatted by `format`: the consumer redirects its output
    Ftruncate, // records nothing: the consumer truncates its output file
    System,    // records `args` formatted by `format`: the consumer runs the command
    Raise,     // `value`: the signal sent to the firing's process
    Stop,      // stops the firing's process
    Chill,     // `value`: nanoseconds to spin
    Library,   // records `args` for the consumer to act on (`library`; DTrace's DTRACEACT_LIBACT)
    Tracemem,  // records `args`: [the bytes to print,] then the memory (by reference)
    Print,     // records `value`, printed by its D type `type`
    Plugin,    // a plugin's action: records `args`, which the consumer hands to the plugin
};

// The actions the consumer carries out when it reads their record, in order
// with the output (DTrace's "library actions").
enum class LibraryAction : uint8_t {
    Clear,       // clear(@a): zeroes the values, keeps the keys
    Trunc,       // trunc(@a[, n]): args[0] the number of entries to keep (smallest when negative)
    Normalize,   // normalize(@a, n): args[0] the divisor
    Denormalize, // denormalize(@a)
    Setopt,      // setopt(name[, value]): args[0] the name, args[1] the value if given
};

struct Action {
    ActionKind kind = ActionKind::Expression;
    int line = 0;
    std::optional<dif::Difo> value;
    std::vector<dif::Difo> args; // printf/printa arguments, or aggregation keys
    std::string format;          // printf / printa format string (as decoded from the literal)
    bool has_format = false;
    uint32_t aggregation = 0;        // Aggregate: AggregationDecl::id
    std::vector<dif::Difo> agg_args; // Aggregate: the aggregating function's non-constant arguments
    std::vector<uint32_t> printa_aggs;
    LibraryAction library = LibraryAction::Clear; // Library: which one (aggregation: `aggregation`)
    const Type *type = nullptr;                   // Print: the value's D type (in Program::types)
    uint32_t plugin_action = 0;                   // Plugin: the host's id of the action
};

// A plugin action's args are the call's arguments followed by the firing's
// pid and tid, which the consumer hands to the plugin beside the values.
inline constexpr size_t kPluginActionContextValues = 2;

struct Clause {
    std::vector<std::string> probes; // probe descriptions as written
    std::optional<dif::Difo> predicate;
    // What a provider may check of the predicate before firing (empty: no
    // conjunct could be hoisted, every event may pass).
    PredicateFilter filter;
    std::vector<Action> actions;
    int line = 0;
};

// One argument of a USDT probe a `provider` definition declares.
struct ProbeArgument {
    std::string type_name; // as DTrace prints it: "char *", "uint32_t"
    uint32_t size = 0;     // bytes
    bool is_signed = false;
    bool is_pointer = false; // pointers and strings: the argument is an address
    bool is_scalar = false;  // an integer or a pointer: what a USDT probe can carry
};

// `provider p { probe q(int, char *) : (int, string); };`: what dtrace -h
// and -G make a header and an object from (the probes in order).
struct ProviderInterface {
    struct Probe {
        std::string name;    // as DTrace names it ("request-start")
        std::string written; // as the definition spells it ("request__start")
        std::vector<ProbeArgument> args;
        std::vector<std::string> translated_types; // after ':', or the native types' names
        int line = 0;
    };
    std::string name;
    std::vector<Probe> probes;
};

struct Program {
    // The program's types (print() names them when it prints).
    std::shared_ptr<const TypeTable> types;
    std::vector<Clause> clauses;
    std::vector<AggregationDecl> aggregations;
    // Options set with #pragma D option name[=value], in order.
    std::vector<std::pair<std::string, std::string>> pragma_options;
    // Variables of every scope the program uses (ids as in the DIFOs).
    std::vector<dif::Variable> variables;
    // The USDT providers the program defines (`provider` blocks), in order.
    std::vector<ProviderInterface> providers;
};

} // namespace dtrace::compiler
