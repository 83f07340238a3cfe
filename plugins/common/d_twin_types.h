// d_twin_types.h: the D text of a translated type and its native twin.
//
// A plugin that hands D a struct argument (psinfo_t *, bufinfo_t * ...) in
// memory D can only copyin() declares, for each such type T, a twin
// <prefix>T_t with the same members in the same order, each a 64-bit slot
// (a string member holds the address of its text), and a translator from
// the twin to T that copies the twin in and converts each slot to its
// member's type. The plugin fills a twin per firing and passes its address;
// the member table it generates the D text from also gives it the slot
// indices, so the two cannot drift apart.
#ifndef DTRACE_PLUGINS_COMMON_D_TWIN_TYPES_H
#define DTRACE_PLUGINS_COMMON_D_TWIN_TYPES_H

#include <span>
#include <string>
#include <string_view>

namespace dtrace::plugin_common {

struct TwinMember {
    std::string_view name;
    std::string_view d_type; // "string": a slot holding the text's address
    std::string_view comment;
};

// How a translator reaches its twin: its input's declaration and the
// twin's address in terms of that input.
struct TwinInput {
    std::string declaration;
    std::string address;
};

// The usual input: the twin's own address (`<twin> *P`).
inline TwinInput twin_pointer_input(const std::string &twin) {
    return {twin + " *P", "(uintptr_t)P"};
}

// Appends `typedef struct tag {...} tag_t;` and its twin `twin_prefix` + tag
// + "_t". `members` is a table (array, span) of rows with a name and a
// d_type, and a comment written beside the member when they have one.
template <typename Members>
void append_twin_structs(std::string &d, std::string_view tag, std::string_view twin_prefix, const Members &members) {
    const std::string t(tag);
    d += "typedef struct " + t + " {\n";
    for (const auto &m : members) {
        d += "\t" + std::string(m.d_type) + " " + std::string(m.name) + ";";
        if constexpr (requires { m.comment; })
            d += "\t/* " + std::string(m.comment) + " */";
        d += "\n";
    }
    d += "} " + t + "_t;\n";
    d += "typedef struct " + std::string(twin_prefix) + t + " {\n";
    for (const auto &m : members)
        d += "\tuint64_t " + std::string(m.name) + ";\n";
    d += "} " + std::string(twin_prefix) + t + "_t;\n";
}

// The D expression a translator from `twin` (reached as `input` says) gives
// member `m`: its slot copied in and converted to the member's type.
template <typename Member>
std::string twin_member_read(const std::string &twin, const TwinInput &input, const Member &m) {
    const std::string copied = "((" + twin + " *)copyin(" + input.address + ", sizeof (" + twin + ")))->";
    const std::string name(m.name);
    if (m.d_type == "string")
        return "copyinstr((uintptr_t)" + copied + name + ")";
    return "(" + std::string(m.d_type) + ")" + copied + name;
}

// Appends append_twin_structs()'s structs and the translator between them.
template <typename Members>
void append_twin_type(std::string &d, std::string_view tag, std::string_view twin_prefix, const Members &members,
                      TwinInput (*input_of)(const std::string &twin) = twin_pointer_input) {
    append_twin_structs(d, tag, twin_prefix, members);
    const std::string t(tag);
    const std::string twin = std::string(twin_prefix) + t + "_t";
    const TwinInput input = input_of(twin);
    d += "translator " + t + "_t < " + input.declaration + " > {\n";
    for (const auto &m : members)
        d += "\t" + std::string(m.name) + " = " + twin_member_read(twin, input, m) + ";\n";
    d += "};\n";
}

} // namespace dtrace::plugin_common

#endif
