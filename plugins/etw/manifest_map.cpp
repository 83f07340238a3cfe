// manifest_map.cpp: the names value maps and bitmaps give values.
#include "manifest.h"

#include "reader/problem_log.h"

namespace dtrace::etw::plugin {

namespace {

const std::string *exact(const ManifestMap &map, uint64_t value) {
    for (const auto &[v, name] : map.entries) {
        if (v == value) {
            return &name;
        }
    }
    return nullptr;
}

} // namespace

std::string map_value_name(const ManifestMap &map, uint64_t value) {
    if (const std::string *name = exact(map, value)) {
        return *name;
    }
    if (!map.is_bitmap) {
        return std::to_string(value);
    }
    std::string names;
    uint64_t unnamed = value;
    for (const auto &[bits, name] : map.entries) {
        if (bits != 0 && (value & bits) == bits) {
            names += (names.empty() ? "" : "|") + name;
            unnamed &= ~bits;
        }
    }
    if (unnamed != 0 || names.empty()) {
        names += (names.empty() ? "" : "|") + hex_offset(unnamed);
    }
    return names;
}

} // namespace dtrace::etw::plugin
