// fake_sink.h: a ProbeSink that records what plugins send, for the tests.
//
// Fires arrive on plugin threads, so recording is guarded by a mutex; the
// tests read the records after stop_all(), which joins those threads. A fire's ctx is copied field by field
// (and each argument read as a string through the ctx's memory reader),
// since the ctx is only valid during the call.
#pragma once

#include "host/probe_sink.h"

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace dtrace::host::test {

struct RecordedProvider {
    std::string name, d_source;
    const LoadedPlugin *owner;
};

struct RecordedProbe {
    dtrace_provider_id provider;
    ProbeInfo info;
};

struct RecordedFire {
    dtrace_probe_id probe;
    uint32_t cpu;
    uint64_t timestamp;
    int64_t pid, tid;
    std::string execname;
    std::vector<uint64_t> args;
    std::vector<std::string> arg_strings; // each arg read as a string through read_memory, "" if unreadable
    uint32_t flags;
};

class FakeSink : public ProbeSink {
  public:
    Result<dtrace_provider_id> add_provider(LoadedPlugin &owner, const dtrace_provider_info &info) override;
    dtrace_probe_id add_probe(dtrace_provider_id provider, const ProbeInfo &probe) override;
    dtrace_probe_id lookup_probe(dtrace_provider_id provider, std::string_view module, std::string_view function,
                                 std::string_view name) const override;
    void fire(dtrace_probe_id probe, const dtrace_event_ctx &ctx) override;
    void report_drops(uint32_t cpu, uint64_t count, dtrace_drop_kind kind) override;
    const char *option(std::string_view name) const override;
    void input_finished() override {}
    void report_error(std::string_view plugin, std::string_view message) override;
    void remove_provider(dtrace_provider_id provider) override { removed_providers.push_back(provider); }

    std::map<std::string, std::string> options;
    std::vector<RecordedProvider> providers; // id = index + 1
    std::vector<RecordedProbe> probes;       // id = index + 1
    std::vector<RecordedFire> fires;
    std::vector<std::string> errors; // "plugin: message"
    std::vector<dtrace_provider_id> removed_providers;
    uint64_t drops = 0;

    size_t fire_count() const;

  private:
    mutable std::mutex mutex_;
};

} // namespace dtrace::host::test
