// dnet_library.cpp: the dnet D library, generated from the member tables of
// the families (see dnet_library.h), so the twins the plugin fills and the
// translators that read them cannot drift apart.
#include "dnet_library.h"

#include <set>
#include <string_view>

#include "dnet_probes.h"

namespace dtrace::dnet {

namespace {

void append_type(std::string &d, const DnetType &t) {
    const std::string tag(t.tag);
    const std::string twin = "dnet_" + tag + "_t";
    d += "typedef struct " + tag + " {\n";
    for (const DnetMember &m : t.members) {
        d += "\t" + std::string(m.d_type) + " " + std::string(m.name) + ";\n";
    }
    d += "} " + tag + "_t;\n";
    d += "typedef struct dnet_" + tag + " {\n";
    for (const DnetMember &m : t.members) {
        d += "\tuint64_t " + std::string(m.name) + ";\n";
    }
    d += "} " + twin + ";\n";
    d += "translator " + tag + "_t < char *p > {\n";
    const std::string copied = "((" + twin + " *)copyin((uintptr_t)p - " + std::to_string(kPayloadPrefixSize) +
                               " - sizeof (" + twin + "), sizeof (" + twin + ")))->";
    for (const DnetMember &m : t.members) {
        const std::string name(m.name);
        if (m.d_type == "string") {
            d += "\t" + name + " = copyinstr((uintptr_t)" + copied + name + ");\n";
        } else {
            d += "\t" + name + " = (" + std::string(m.d_type) + ")" + copied + name + ";\n";
        }
    }
    d += "};\n";
}

} // namespace

const std::string &dnet_d_library() {
    static const std::string library = [] {
        std::string d;
        std::set<std::string_view> done; // types shared by several rows (or families) once
        for (const DnetProbe &p : dnet_probe_table()) {
            if (done.insert(p.type->tag).second) {
                append_type(d, *p.type);
            }
        }
        return d;
    }();
    return library;
}

} // namespace dtrace::dnet
