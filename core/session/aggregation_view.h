// aggregation_view.h: the consumer's view of the aggregations.
//
// Takes snapshots of the engine's aggregation tables, decodes their keys
// into printable values, and prints them through consumer/agg_format: with
// printa() (with or without a format) while tracing, and at the end those
// that printa() never printed, as dtrace(1) does.
#pragma once

#include "compiler/program.h"
#include "consumer/aggregation.h"
#include "consumer/printf_format.h"
#include "engine/engine.h"
#include "engine/options.h"

#include <map>
#include <optional>
#include <set>
#include <string>

namespace dtrace::session {

class AggregationView {
  public:
    AggregationView(engine::Engine &engine, const engine::Options &options) : engine_(engine), options_(options) {}

    // printa(@a, @b ...): `format` null for the default layout.
    std::string printa(const compiler::Program &program, const compiler::Action &action,
                       const consumer::Format *format);
    // Every aggregation printa() has not printed, in order of appearance.
    std::string unprinted();
    // How stack and address keys are named.
    void set_resolvers(consumer::Resolvers resolvers) { resolvers_ = std::move(resolvers); }

    // The aggregation actions, carried out when the consumer reads their
    // record, as DTrace's consumer does. trunc() keeps the `keep` entries
    // with the largest values (the smallest when negative), by the order
    // printing uses (so aggsortrev and aggsortkeypos count).
    void clear(const compiler::Program &program, uint32_t id);
    void trunc(const compiler::Program &program, uint32_t id, int64_t keep);
    // normalize(): the values of the entries present now print divided by
    // `normal` (entries created later are not normalized, as in DTrace);
    // denormalize() is 1.
    void normalize(const compiler::Program &program, uint32_t id, uint64_t normal);

  private:
    // `sources`, when given: for each entry of the result, the positions in
    // `s` of the engine's entries it stands for (symbol keys fold several).
    consumer::AggregationSnapshot convert(const engine::AggregationStore::Snapshot &s,
                                          std::vector<std::vector<size_t>> *sources = nullptr) const;
    // -x oformat=json or -x stackformat=folded: the aggregations in that
    // form (json_format.h); nothing when neither is set.
    std::optional<std::string> for_tools(const std::vector<consumer::AggregationSnapshot> &aggs) const;

    engine::Engine &engine_;
    const engine::Options &options_;
    std::set<const compiler::AggregationDecl *> printed_;
    // Per aggregation, the normal of each normalized entry by encoded key.
    std::map<std::pair<const compiler::Program *, uint32_t>, std::map<std::string, uint64_t>> normals_;
    consumer::Resolvers resolvers_;
};

} // namespace dtrace::session
