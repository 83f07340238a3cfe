// plugin_counters.h: the plugins' counters D reads as pmc["name"].
//
// The compiler asks whether an undeclared array is a counter array (one a
// plugin declares in dtrace_plugin_ops.counter_array, loaded or not) and
// has each name resolved by that plugin once; the engine then reads the
// counter by the id handed out here, in probe context, through the same
// plugin's read_counter.
#pragma once

#include "compiler/compile.h"
#include "engine/counter_reader.h"
#include "host/plugin_host.h"

#include <string>
#include <vector>

namespace dtrace::cli {

class PluginCounters final : public engine::CounterReader {
  public:
    explicit PluginCounters(host::PluginHost &host) : host_(host) {}

    // Sets CompileOptions::is_counter_array and resolve_counter.
    void install(compiler::CompileOptions &options);

    bool read_counter(uint32_t id, const dtrace_event_ctx &ctx, uint64_t &value) const override;

  private:
    bool is_counter_array(const std::string &array) const;
    compiler::PluginCounter resolve(const std::string &array, const std::string &name);

    struct Resolved {
        host::LoadedPlugin *plugin;
        uint64_t cookie;
        std::string array, name; // the same name resolves to the same id
    };
    host::PluginHost &host_;
    std::vector<Resolved> counters_; // id - 1; written while compiling, read-only once tracing starts
};

} // namespace dtrace::cli
