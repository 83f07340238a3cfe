// aggregation_view.h: the consumer's view of the aggregations.
//
// Takes snapshots of the engine's aggregation tables, decodes their keys
// into printable values, and prints them through consumer/agg_format: with
// printa() (with or without a format) while tracing, and at the end those
// that printa() never printed, as dtrace(1) does.
#pragma once

#include "compiler/program.h"
#include "consumer/printf_format.h"
#include "engine/engine.h"
#include "engine/options.h"

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

  private:
    engine::Engine &engine_;
    const engine::Options &options_;
    std::set<const compiler::AggregationDecl *> printed_;
};

} // namespace dtrace::session
