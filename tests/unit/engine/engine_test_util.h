// engine_test_util.h: what the engine's tests register providers and probes
// with, and how they read an aggregation back.
#pragma once

#include "engine/engine.h"
#include "engine/probe_table.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dtrace::test {

inline dtrace_provider_id add_provider(engine::ProbeTable &table, const char *name) {
    dtrace_provider_info info{};
    info.struct_size = sizeof info;
    info.name = name;
    return table.add_provider(nullptr, info).value();
}

inline host::ProbeInfo probe_info(const std::string &name) {
    host::ProbeInfo p;
    p.name = name;
    return p;
}

// An aggregation's entries: each its encoded key and its first data word.
using AggregationEntries = std::vector<std::pair<std::string, int64_t>>;

// The entries of aggregation `name`, in the snapshot's order; nullopt when
// the program has no such aggregation.
inline std::optional<AggregationEntries> find_entries(engine::Engine &engine, std::string_view name) {
    for (const auto &s : engine.snapshot_aggregations()) {
        if (s.decl->name != name)
            continue;
        AggregationEntries entries;
        for (const auto &[key, data] : s.entries)
            entries.emplace_back(key, data.front());
        return entries;
    }
    return std::nullopt;
}

// The entries of aggregation `name` (none when there is no such aggregation).
inline AggregationEntries entries_of(engine::Engine &engine, std::string_view name) {
    return find_entries(engine, name).value_or(AggregationEntries{});
}

// The first entry's first data word: 0 with no entries, -1 when there is no
// such aggregation.
inline int64_t count_of(engine::Engine &engine, std::string_view name) {
    auto entries = find_entries(engine, name);
    if (!entries)
        return -1;
    return entries->empty() ? 0 : entries->front().second;
}

} // namespace dtrace::test
