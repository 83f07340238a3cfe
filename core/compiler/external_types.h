// external_types.h: types and symbols the compiler gets from outside D
// source: the plugins' lookup_type and lookup_kernel_symbol (SDK), which the
// CLI wires into CompileOptions as plain copies of what the plugin answered.
//
// A type arrives as a small graph (TypeGraph) when a program names a type
// that nobody declared; import_type_graph() adds it to the TypeTable. Structs
// that the graph only names (Kind::Named "struct x") become forward
// declarations, completed by asking again when a program uses their members,
// so a plugin with thousands of types (BTF) describes only those in use.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dtrace::compiler {

class TypeTable;
struct Type;

// The numbering is the SDK's dtrace_type_kind.
struct TypeGraphNode {
    enum class Kind : uint8_t {
        Void = 1,
        Integer,
        Float,
        Pointer,
        Array,
        Struct,
        Union,
        Enum,
        Typedef,
        Const,
        Volatile,
        Named
    };
    struct Member {
        std::string name;
        uint32_t type = 0; // index in the graph
        uint32_t bit_width = 0;
        uint64_t offset_bits = 0;
    };
    Kind kind = Kind::Void;
    std::string name;
    uint64_t size = 0;
    bool is_signed = false;
    uint32_t ref = 0; // index in the graph
    uint64_t count = 0;
    std::vector<Member> members;
    std::vector<std::pair<std::string, int64_t>> enumerators;
};

struct TypeGraph {
    std::vector<TypeGraphNode> nodes;
    uint32_t root = 0;
};

// A backquoted symbol's address and the D spelling of its type ("" : int).
struct ExternalSymbol {
    uint64_t address = 0;
    std::string type;
};

// Adds the graph's types to `table` and returns the root's; null when the
// graph is malformed (an index out of range, a cycle not through a struct)
// or names what the table cannot resolve.
const Type *import_type_graph(TypeTable &table, const TypeGraph &graph);

} // namespace dtrace::compiler
