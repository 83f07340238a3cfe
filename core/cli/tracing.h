// tracing.h: the tracing loop of `dtrace` (after the probes are enabled).
//
// Starts the plugins and the engine (BEGIN), releases the -c and -p processes, then
// consumes: every switchrate it takes the principal buffers and prints their
// records, until exit() is called, the replayed input ends, every target
// process has gone, or the user interrupts (^C). Then END fires, the last
// records are printed, then a blank line and the aggregations, as dtrace(1)
// does. -c commands still running then are killed.
#pragma once

#include "cli/command_line.h"
#include "cli/target_process.h"
#include "engine/engine.h"
#include "engine/options.h"
#include "host/plugin_host.h"

#include <cstdio>
#include <string>
#include <vector>

namespace dtrace::cli {

class Tracing {
  public:
    Tracing(engine::Engine &engine, host::PluginHost &host, engine::Options &options, FILE *out,
            std::string program_name, std::vector<TargetProcess> &targets)
        : engine_(engine), host_(host), options_(options), out_(out), program_name_(std::move(program_name)),
          targets_(targets) {}

    // Returns dtrace's exit status.
    int run();

  private:
    bool targets_gone();
    void kill_created_targets();

    engine::Engine &engine_;
    host::PluginHost &host_;
    engine::Options &options_;
    FILE *out_;
    std::string program_name_;
    std::vector<TargetProcess> &targets_;
};

} // namespace dtrace::cli
