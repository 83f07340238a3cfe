// dnet_library.h: the D types and translators of the dnet probes.
//
// Each translated type T (netgc_t ...: dnet_family.h) has a native twin,
// dnet_T: the same members in the same order, each a 64-bit slot (a string
// member is the address of its UTF-8 text). For each firing the plugin lays
// out, in memory D can read, the twin, then the 4 bytes that precede a raw
// payload in the etw plugin's convention (u16 event id, u8 version, u8 1 for
// a 64-bit process), then the raw payload; arg0 is the payload's address.
// So the translator `T < char *p >` finds the twin just before p's prefix,
// and `args[0]->gc_typename` is xlate<netgcalloctick_t *>(arg0)->gc_typename,
// as in the Windows port whose translators read the payload from arg0.
#pragma once

#include <cstddef>
#include <string>

namespace dtrace::dnet {

// Bytes before the raw payload: the prefix (the twin comes before it).
inline constexpr size_t kPayloadPrefixSize = 4;

// The library's D source, generated from the families' member tables.
const std::string &dnet_d_library();

} // namespace dtrace::dnet
