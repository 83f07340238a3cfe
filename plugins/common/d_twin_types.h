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

// Appends `typedef struct tag {...} tag_t;`, its twin `twin_prefix` + tag +
// "_t" and the translator between them.
inline void append_twin_type(std::string &d, std::string_view tag, std::string_view twin_prefix,
                             std::span<const TwinMember> members) {
    const std::string t(tag);
    const std::string twin = std::string(twin_prefix) + t + "_t";
    d += "typedef struct " + t + " {\n";
    for (const TwinMember &m : members)
        d += "\t" + std::string(m.d_type) + " " + std::string(m.name) + ";\t/* " + std::string(m.comment) + " */\n";
    d += "} " + t + "_t;\n";
    d += "typedef struct " + std::string(twin_prefix) + t + " {\n";
    for (const TwinMember &m : members)
        d += "\tuint64_t " + std::string(m.name) + ";\n";
    d += "} " + twin + ";\n";
    d += "translator " + t + "_t < " + twin + " *P > {\n";
    const std::string copied = "((" + twin + " *)copyin((uintptr_t)P, sizeof (" + twin + ")))->";
    for (const TwinMember &m : members) {
        const std::string name(m.name);
        if (m.d_type == "string")
            d += "\t" + name + " = copyinstr((uintptr_t)" + copied + name + ");\n";
        else
            d += "\t" + name + " = (" + std::string(m.d_type) + ")" + copied + name + ";\n";
    }
    d += "};\n";
}

} // namespace dtrace::plugin_common

#endif
