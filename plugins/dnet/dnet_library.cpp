// dnet_library.cpp: the dnet D library, generated from the member tables of
// the families (see dnet_library.h), so the twins the plugin fills and the
// translators that read them cannot drift apart.
#include "dnet_library.h"

#include <set>
#include <string_view>

#include "d_twin_types.h"
#include "dnet_probes.h"

namespace dtrace::dnet {

namespace {

// The translators' input is the raw payload (arg0): each event's twin lies
// just before its payload's prefix.
plugin_common::TwinInput payload_input(const std::string &twin) {
    return {"char *p", "(uintptr_t)p - " + std::to_string(kPayloadPrefixSize) + " - sizeof (" + twin + ")"};
}

} // namespace

const std::string &dnet_d_library() {
    static const std::string library = [] {
        std::string d;
        std::set<std::string_view> done; // types shared by several rows (or families) once
        for (const DnetProbe &p : dnet_probe_table()) {
            if (done.insert(p.type->tag).second) {
                plugin_common::append_twin_type(d, p.type->tag, "dnet_", p.type->members, payload_input);
            }
        }
        return d;
    }();
    return library;
}

} // namespace dtrace::dnet
