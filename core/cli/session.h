// session.h: one run of the dtrace command, from options to exit status.
//
// The steps mirror dtrace(1): apply options, load plugins, compile every
// program source (-s, -n, -P, -m, -f, -i), then either list the matching
// probes (-l) or enable them, start tracing, consume until exit() / end of
// input / ^C, and print the aggregations.
#pragma once

#include "cli/command_line.h"
#include "cli/plugin_counters.h"
#include "cli/preprocessor.h"
#include "cli/target_process.h"
#include "compiler/compile.h"
#include "engine/engine.h"
#include "engine/options.h"
#include "host/plugin_host.h"

#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace dtrace::cli {

// Exit statuses of dtrace(1).
constexpr int kExitSuccess = 0;
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

// What -V prints after "dtrace: ": the D language version DTrace reports.
constexpr const char *kDLanguageVersion = "Sun D 1.13";
// -x plugins=help lists the plugins instead of selecting some.
constexpr const char *kPluginsHelp = "help";

class Session {
  public:
    Session(CommandLine command_line, std::string program_name);
    ~Session();
    int run();

  private:
    // A compiled program source and how it is reported ("description 'X'" / "script 'F'").
    struct Compiled {
        const ProgramSource *source;
        std::string what;                          // "description" or "script"
        std::string name;                          // the cropped description, or the file name
        std::unique_ptr<compiler::ProgramAst> ast; // kept: the compiler refers to it
        std::unique_ptr<compiler::Program> program;
    };

    bool apply_options();
    bool set_plugin_options();
    bool listing_plugins() const;
    bool zero_matches_allowed() const; // -Z or -x zdefs
    bool load_plugins();
    bool start_targets();
    bool compile_all();
    bool compile_one(const ProgramSource &source, Compiled &out);
    void provide_probes(const Compiled &compiled);
    void print_dif(const compiler::Program &program) const;
    PreprocessorConfig preprocessor_config() const;
    compiler::CompileOptions compile_options() const;
    int list();
    int execute();
    bool open_output();
    void explain_missing_providers(const compiler::Program &program) const;
    void explain_missing_providers(const compiler::ProgramAst &ast) const;
    void explain_missing_provider(const std::string &description) const;
    void explain_undefined(const compiler::Diagnostic &d) const;

    // Messages on stderr, prefixed "dtrace: ".
    void error(const std::string &message) const;
    void notice(const std::string &message) const; // suppressed by -q / quiet

    CommandLine cl_;
    std::string program_name_;
    engine::Options options_;
    std::vector<OptionArg> plugin_option_args_;         // -x names dtrace does not know: the plugins' (or wrong)
    mutable std::set<std::string> explained_providers_; // each missing provider is explained once
    std::unique_ptr<PluginCounters> counters_;          // pmc["name"]; outlives the engine and the plugins that fire
    std::unique_ptr<engine::Engine> engine_;
    std::unique_ptr<host::PluginHost> host_;
    std::unique_ptr<compiler::Compiler> compiler_; // shared by the programs of the run
    std::vector<Compiled> compiled_;
    std::vector<TargetProcess> targets_;
    FILE *out_ = stdout;
};

} // namespace dtrace::cli
