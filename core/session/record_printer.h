// record_printer.h: the consumer's reading of the principal buffers.
//
// Walks the records the engine wrote, looks up each record's enabled probe
// (epid) to know which actions produced which fields, and prints them the
// way dtrace(1) does: the heading once, a probe line per firing unless
// quiet (with -F, indented by call depth), trace() and printf() output,
// printa() of aggregations, the consumer's side of freopen(), ftruncate()
// and system(), and fault reports and drops on stderr. It also remembers
// the status exit() recorded.
#pragma once

#include "consumer/printf_format.h"
#include "consumer/record_format.h"
#include "engine/engine.h"
#include "engine/options.h"
#include "session/aggregation_view.h"
#include "session/drop_report.h"
#include "session/output_control.h"
#include "session/recorded_value.h"

#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dtrace::session {

// Performs a recorded call of a plugin action: the action's id, the CPU and
// timestamp of the record, and the recorded arguments. Returns an error
// message, or "" on success.
using PluginActionRunner = std::function<std::string(uint32_t action, uint32_t cpu, uint64_t timestamp,
                                                     const std::vector<consumer::Value> &args)>;

class RecordPrinter {
  public:
    // `options` changes when the program calls setopt().
    RecordPrinter(engine::Engine &engine, FILE *out, engine::Options &options, std::string program_name);

    // Prints the records taken from the buffers (one entry per CPU) and
    // reports the drops counted with them.
    void consume(const std::vector<engine::Engine::CpuData> &buffers);
    // Reports the drops the session's status counts (dynamic variables,
    // speculations, errors in ERROR clauses): every statusrate and at the end.
    void report_status();
    // Where output goes now (freopen() may have moved it).
    FILE *output() const { return out_; }
    // The aggregations not yet printed by printa(), as at the end of tracing.
    void print_aggregations();
    int exit_status() const { return exit_status_; }
    // How stacks and addresses are named (without it they print as numbers).
    void set_symbol_lookup(SymbolLookup lookup);
    void set_plugin_action_runner(PluginActionRunner runner) { plugin_actions_ = std::move(runner); }

  private:
    // `previous_epid` and `next_epid`: the records around this one (0: none),
    // which -F's indentation heuristics look at.
    void print_record(uint32_t cpu, const engine::RecordHeader &header, const uint8_t *fields, size_t length,
                      uint32_t previous_epid, uint32_t next_epid);
    void print_probe_line(uint32_t cpu, const engine::Ecb &ecb, uint32_t previous_epid, uint32_t next_epid);
    bool same_probe(uint32_t epid, const engine::Ecb &ecb) const;
    void report_drop(DropKind kind, uint64_t count, uint32_t cpu = 0) const;
    void print_fault(const uint8_t *fields, size_t length);
    // A printf-like action's text from its record; nullopt when it cannot be printed.
    std::optional<std::string> format_record(const compiler::Action &action, engine::RecordReader &reader,
                                             const consumer::Resolvers &resolvers);
    void run_output_action(const engine::Ecb &ecb, const compiler::Action &action, engine::RecordReader &reader);
    std::string probe_error(const engine::Ecb &ecb) const;
    void print_printa(const compiler::Program &program, const compiler::Action &action);
    // library_actions.cpp: clear, trunc, normalize, denormalize and setopt.
    void run_library_action(const engine::Ecb &ecb, const compiler::Action &action,
                            const std::vector<consumer::Value> &args);
    const consumer::Format *format_of(const compiler::Action &action);
    void report(const std::string &message) const;

    engine::Engine &engine_;
    OutputControl output_;
    FILE *out_; // output_.stream(), kept at hand
    engine::Options &options_;
    std::string program_name_;
    bool heading_printed_ = false;
    consumer::FlowIndenter flow_;
    uint32_t last_epid_ = 0; // of the last record printed (-F looks back across buffer switches)
    int exit_status_ = 0;
    std::map<const compiler::Action *, consumer::Format> formats_;
    AggregationView aggregations_;
    SymbolLookup symbol_lookup_;
    PluginActionRunner plugin_actions_;
};

} // namespace dtrace::session
