// record_printer.h: the consumer's reading of the principal buffers.
//
// Walks the records the engine wrote, looks up each record's enabled probe
// (epid) to know which actions produced which fields, and prints them the
// way dtrace(1) does: the heading once, a probe line per firing unless
// quiet, trace() and printf() output, printa() of aggregations, and fault
// reports and drops on stderr. It also remembers the status exit() recorded.
#pragma once

#include "consumer/printf_format.h"
#include "engine/engine.h"
#include "engine/options.h"
#include "session/aggregation_view.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace dtrace::session {

class RecordPrinter {
  public:
    RecordPrinter(engine::Engine &engine, FILE *out, const engine::Options &options, std::string program_name);

    // Prints the records taken from the buffers (one entry per CPU) and
    // reports the drops counted with them.
    void consume(const std::vector<engine::Engine::CpuData> &buffers);
    // The aggregations not yet printed by printa(), as at the end of tracing.
    void print_aggregations();
    int exit_status() const { return exit_status_; }

  private:
    void print_record(uint32_t cpu, const engine::RecordHeader &header, const uint8_t *fields, size_t length);
    void print_fault(const uint8_t *fields, size_t length);
    void print_printa(const compiler::Program &program, const compiler::Action &action);
    const consumer::Format *format_of(const compiler::Action &action);
    void report(const std::string &message) const;

    engine::Engine &engine_;
    FILE *out_;
    const engine::Options &options_;
    std::string program_name_;
    bool heading_printed_ = false;
    int exit_status_ = 0;
    std::map<const compiler::Action *, consumer::Format> formats_;
    AggregationView aggregations_;
};

} // namespace dtrace::session
