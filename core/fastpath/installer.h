// installer.h: putting the kernel path in place for a session, and reading
// it back.
//
// Once every program is enabled and before tracing starts, install() plans
// which clauses run in the kernel (planner.h), builds their programs, and
// hands maps and programs to the plugins of their probes through the SDK's
// dtrace_fastpath_ops (each plugin's programs use maps of their own); a program the verifier refuses leaves its clauses
// in user space (with the verifier's log under -x fastpath=explain). From
// then on, before the consumer reads aggregations or drops, the kernel's
// maps are read and merged into the engine (aggregation_merge.h), and
// before it takes the buffers, the records the kernel wrote are appended to
// them (kernel_records.h). A probe registered while tracing runs whose
// clauses and layout are those of a program already loaded runs that program
// too (attach_late()).
#pragma once

#include "engine/engine.h"
#include "fastpath/aggregation_merge.h"
#include "fastpath/planner.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace dtrace::fastpath {

class Installation {
  public:
    ~Installation();
    Installation(const Installation &) = delete;
    Installation &operator=(const Installation &) = delete;

    // Reads the kernel's aggregations and merges what changed into the engine.
    void merge_aggregations();
    // Reads the kernel's drop counters and hands the increase to the engine.
    void merge_drops();
    // Takes the records the kernel wrote to its ring and appends them to the engine's buffers.
    void merge_records();
    // A probe registered after install() (its clauses enabled on it): attaches
    // the loaded program of the same clauses and layout, if there is one;
    // otherwise its events keep coming to user space. Fails when the plugin
    // could not attach it.
    Status attach_late(const engine::Probe &probe);

  private:
    friend class Installer;
    // One plugin whose probes run programs, with the maps they use (each
    // plugin creates its own; PlannedProbe::port is the index in ports_).
    struct Port {
        const dtrace_fastpath_ops *ops = nullptr;
        void *state = nullptr;
        const host::LoadedPlugin *plugin = nullptr;
        // The loaded programs, by the probe layout and clauses they serve.
        std::map<GroupKey, int32_t> programs;
        MapPlan plan;
        std::vector<int32_t> map_handles; // empty: no program of this plugin's
        AggregationDeltas deltas;
        uint64_t drops_seen[3] = {0, 0, 0};
    };
    explicit Installation(engine::Engine &engine) : engine_(engine) {}
    void merge_records(Port &port);

    engine::Engine &engine_;
    std::vector<Port> ports_;
};

// Where explanations go (-x fastpath=explain): one message per call.
using ExplainFn = std::function<void(const std::string &)>;

// Installs the kernel path (per the `fastpath` option). Returns what kept
// tracing from starting (a plugin refused to attach a loaded program), if
// anything; `out` is the installation (null when no clause runs in the kernel).
std::optional<std::string> install(engine::Engine &engine, const engine::Options &options, const ExplainFn &explain,
                                   std::unique_ptr<Installation> &out);

} // namespace dtrace::fastpath
