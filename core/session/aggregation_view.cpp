// aggregation_view.cpp: engine snapshots to consumer snapshots, and printing.
#include "session/aggregation_view.h"

#include "consumer/agg_format.h"
#include "consumer/json_format.h"
#include "consumer/symbol_keys.h"
#include "engine/aggregation_store.h"
#include "session/recorded_value.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace dtrace::session {

namespace {

consumer::Value key_value(const dif::TypeDesc &type, const engine::DecodedKey &key) {
    consumer::Value v;
    v.size = type.size;
    switch (key.kind) {
    case engine::DecodedKey::Kind::Integer:
        v.kind = consumer::Value::Kind::Integer;
        v.is_signed = type.is_signed;
        v.bits = key.integer;
        break;
    case engine::DecodedKey::Kind::String:
        v.kind = consumer::Value::Kind::String;
        v.bytes = std::string(key.bytes);
        break;
    case engine::DecodedKey::Kind::Bytes:
        v.kind = consumer::Value::Kind::Bytes;
        v.bytes = std::string(key.bytes);
        break;
    }
    return shown_value(type, std::move(v));
}

} // namespace

consumer::AggregationSnapshot AggregationView::convert(const engine::AggregationStore::Snapshot &s,
                                                       std::vector<std::vector<size_t>> *sources) const {
    consumer::AggregationSnapshot out;
    auto normals = normals_.find(std::make_pair(s.program, s.decl->id));
    out.decl = *s.decl;
    out.entries.reserve(s.entries.size());
    for (const auto &[key, data] : s.entries) {
        consumer::AggEntry entry;
        std::vector<engine::DecodedKey> decoded = engine::decode_key(*s.decl, key);
        for (size_t i = 0; i < decoded.size(); i++)
            entry.key.push_back(key_value(s.decl->key_types[i], decoded[i]));
        entry.data = data;
        if (normals != normals_.end()) {
            auto normal = normals->second.find(key);
            if (normal != normals->second.end())
                entry.normal = static_cast<int64_t>(normal->second);
        }
        out.entries.push_back(std::move(entry));
    }
    consumer::merge_symbol_keys(out, resolvers_, sources);
    return out;
}

namespace {

consumer::AggSortOptions sort_options(const engine::Options &o) {
    consumer::AggSortOptions sort;
    sort.sortkey = o.is_set("aggsortkey");
    sort.sortkeypos = static_cast<int>(o.number("aggsortkeypos"));
    sort.sortpos = static_cast<int>(o.number("aggsortpos"));
    sort.sortrev = o.is_set("aggsortrev");
    return sort;
}

// Terminals DTrace does not trust with UTF-8 when no encoding is set.
bool primitive_terminal() {
    const char *term = std::getenv("TERM");
    if (!term)
        return false;
    const std::string_view name(term);
    return name == "sun" || name == "sun-color" || name == "dumb";
}

consumer::AggPrintOptions print_options(const engine::Options &o, const consumer::Resolvers &resolvers) {
    consumer::AggPrintOptions print;
    print.resolvers = resolvers;
    print.zoom = o.is_set("aggzoom");
    print.hist = o.is_set("agghist");
    print.pack = o.is_set("aggpack");
    const std::string *encoding = o.text("encoding");
    print.bars_utf8 = encoding && *encoding == "utf8";
    print.pack_utf8 = encoding ? *encoding == "utf8" : !primitive_terminal();
    print.rawbytes = o.is_set("rawbytes");
    print.stackindent = static_cast<int>(o.number("stackindent"));
    return print;
}

} // namespace

std::string AggregationView::printa(const compiler::Program &program, const compiler::Action &action,
                                    const consumer::Format *format) {
    std::vector<engine::AggregationStore::Snapshot> all = engine_.snapshot_aggregations();
    std::vector<consumer::AggregationSnapshot> chosen;
    for (uint32_t id : action.printa_aggs) {
        for (const auto &s : all) {
            // printa names aggregations of its own program by id.
            if (s.decl->id == id && s.program == &program) {
                chosen.push_back(convert(s));
                printed_.insert(s.decl);
            }
        }
    }
    if (chosen.empty())
        return {};
    if (std::optional<std::string> text = for_tools(chosen); text && !format)
        return *text;
    if (format) {
        auto text =
            consumer::printa_format(*format, chosen, sort_options(options_), print_options(options_, resolvers_));
        return text.ok() ? text.value() : std::string();
    }
    if (chosen.size() == 1)
        return consumer::print_aggregation(chosen.front(), sort_options(options_), print_options(options_, resolvers_));
    return consumer::print_aggregations(chosen, sort_options(options_), print_options(options_, resolvers_));
}

std::string AggregationView::unprinted() {
    std::vector<consumer::AggregationSnapshot> left;
    for (const auto &s : engine_.snapshot_aggregations()) {
        if (!printed_.count(s.decl))
            left.push_back(convert(s));
    }
    if (std::optional<std::string> text = for_tools(left))
        return *text;
    return consumer::print_at_exit(left, sort_options(options_), print_options(options_, resolvers_));
}

std::optional<std::string> AggregationView::for_tools(const std::vector<consumer::AggregationSnapshot> &aggs) const {
    const std::string *oformat = options_.text("oformat");
    const std::string *stackformat = options_.text("stackformat");
    const bool json = oformat != nullptr && *oformat == "json";
    const bool folded = stackformat != nullptr && *stackformat == "folded";
    if (!json && !folded)
        return std::nullopt;
    std::string out;
    for (const consumer::AggregationSnapshot &agg : aggs)
        out += json ? consumer::json_aggregation(agg, sort_options(options_), resolvers_)
                    : consumer::folded_aggregation(agg, sort_options(options_), resolvers_);
    return out;
}

void AggregationView::clear(const compiler::Program &program, uint32_t id) {
    engine_.clear_aggregation(program, id);
}

void AggregationView::trunc(const compiler::Program &program, uint32_t id, int64_t keep) {
    for (const auto &s : engine_.snapshot_aggregations()) {
        if (s.decl->id != id || s.program != &program)
            continue;
        // DTrace walks the entries by value, ascending to keep the smallest
        // and descending to keep the largest, and removes all after `keep`.
        // An entry of symbol keys stands for every engine entry folded into it.
        consumer::AggSortOptions by_value = sort_options(options_);
        by_value.sortkey = false;
        std::vector<std::vector<size_t>> sources;
        std::vector<size_t> order = consumer::sorted_entries(convert(s, &sources), by_value);
        if (keep >= 0)
            std::reverse(order.begin(), order.end());
        const uint64_t kept = keep >= 0 ? uint64_t(keep) : 0 - uint64_t(keep);
        std::vector<std::string> gone;
        for (size_t i = kept; i < order.size(); i++) {
            for (size_t source : sources[order[i]])
                gone.push_back(s.entries[source].first);
        }
        if (!gone.empty())
            engine_.remove_aggregation_keys(program, id, gone);
        // A removed entry that comes back is a new one, unnormalized.
        if (auto normals = normals_.find(std::make_pair(&program, id)); normals != normals_.end()) {
            for (const std::string &key : gone)
                normals->second.erase(key);
        }
        return;
    }
}

void AggregationView::normalize(const compiler::Program &program, uint32_t id, uint64_t normal) {
    std::map<std::string, uint64_t> &normals = normals_[std::make_pair(&program, id)];
    for (const auto &s : engine_.snapshot_aggregations()) {
        if (s.decl->id != id || s.program != &program)
            continue;
        for (const auto &entry : s.entries)
            normals[entry.first] = normal;
    }
}

} // namespace dtrace::session
