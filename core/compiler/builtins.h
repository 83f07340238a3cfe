// builtins.h: the table of D's built-in identifiers.
//
// Like DTrace's global identifier table, each entry names a builtin variable,
// subroutine, aggregating function or action, and types it with a prototype
// string in C syntax: "string(const char *, int, [int])" where "@" stands for
// an argument of any type, "[T]" for an optional argument and "..." for
// varargs. Prototypes are parsed into Signatures on first use against the
// program's TypeTable. Identifiers DTrace defines that only have a meaning
// inside a kernel are in the table too, marked kernel_only, so that using
// them fails with "not available" rather than "unknown identifier".
#pragma once

#include "compiler/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::compiler {

enum class IdentKind : uint8_t {
    Scalar,   // builtin variable (id: dif::VarId)
    Array,    // builtin array: args[], uregs[] (id: dif::VarId)
    Function, // subroutine (id: dif::Subr)
    AggFunc,  // aggregating function (id: AggFunc)
    ActFunc,  // action (id: ActionFn)
    Pointer,  // self, this
};

// The actions (DTrace's "tracing functions").
enum class ActionFn : uint8_t {
    Trace,
    Printf,
    Printa,
    Exit,
    // Speculation, program control and the destructive actions (action_traits.h).
    Speculate,
    Commit,
    Discard,
    Freopen,
    Ftruncate,
    System,
    Raise,
    Stop,
    Chill,
    Clear, // the consumer's aggregation actions (ActionKind::Library)
    Trunc,
    Normalize,
    Denormalize,
    Setopt,
    // Record a stack or an address that the consumer names (sema_record.cpp).
    Stack,
    Ustack,
    Jstack,
    Sym, // sym() and func()
    Mod,
    USym, // usym() and ufunc()
    UMod,
    UAddr,
    Tracemem, // tracemem() and print() (sema_memory.cpp)
    Print,
    Other, // known to DTrace, not supported here yet
};

struct BuiltinIdent {
    std::string_view name;
    IdentKind kind;
    uint32_t id;
    std::string_view proto;            // Scalar: its type; functions: the prototype
    bool kernel_only = false;          // reads or acts on the kernel: never available here
    bool reads_process_memory = false; // copyin() and kin: refused where the events carry no process memory
};

const BuiltinIdent *find_builtin(std::string_view name);

// DTrace's name for an identifier kind in messages ("scalar", "function"...).
const char *ident_kind_name(IdentKind kind);

// A parsed prototype. A null parameter type is "@" (any type).
struct Signature {
    const Type *ret = nullptr;
    std::vector<const Type *> params;
    int optional_from = -1; // index of the first [optional] parameter
    int varargs_at = -1;    // index of "..."
};

// Parses a prototype string; nullopt when a type in it is unknown.
std::optional<Signature> parse_prototype(std::string_view proto, TypeTable &types);

} // namespace dtrace::compiler
