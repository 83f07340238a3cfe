// pmc_plugin.h: the pmc plugin's state: perf sampling events and their firings.
//
// The plugin samples with perf events (plugins/live/perf) and fires probes in
// the sampled thread's context, with stacks unwound and named by the live
// stack helper (plugins/live/stacks):
//   - profile-N and tick-N, the core profile provider's timers, which it
//     hands over live (the SDK's add_live_timer): cpu-clock events with a
//     fixed period, on every CPU for profile-N, on one for tick-N; arg0 =
//     the sampled kernel PC or 0 and arg1 = the user PC or 0, as DTrace's;
//   - its own pmc:::<counter>-<interval> probes (counters.h), on every CPU:
//     arg0 = the sampled instruction pointer (kernel or user), arg1 = the
//     user PC or 0.
// The events are opened at start() and closed at stop(); what a ring lost
// is reported as drops.
#pragma once

#include "../live/process_info.h" // live::ProcessInfo (this folder has a process_info.h of its own)
#include "counters.h"
#include "process_info.h"
#include "sampler.h"
#include "stack_symbols.h"

#include <dtrace/provider.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dtrace::pmc {

// One sampled probe: a perf event (type, config) every `period` events.
struct SamplingProbe {
    uint32_t type = 0;
    uint64_t config = 0;
    uint64_t period = 0;
    bool every_cpu = true;   // else one CPU
    bool arg0_is_ip = false; // pmc probes: arg0 is the IP in either mode
    // Every clause's predicate asks for one of these processes (pid ==
    // $target): the event is opened for them alone, not every process on
    // every CPU. Empty: every process.
    std::vector<int64_t> only_pids;
};

class PmcPlugin final : public live::perf::RecordSink {
  public:
    PmcPlugin(dtrace_host *host, const dtrace_host_ops *ops) : host_(host), ops_(ops) {}
    ~PmcPlugin() override { stop(); }

    // Registers the pmc provider.
    int init();
    int provide(const dtrace_probe_spec *spec);
    int enable(dtrace_probe_id probe, uint64_t cookie);
    void disable(dtrace_probe_id probe, uint64_t cookie);
    // The clauses' hoisted predicates: `pid == N` in each lets the probe's
    // event count process N (and what it creates) only.
    int set_filters(dtrace_probe_id probe, uint64_t cookie, uint32_t nfilters, const dtrace_filter *filters);

    int add_live_timer(dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags);
    void remove_live_timer(dtrace_probe_id probe);
    // A target stopped at exec (-c) or grabbed (-p) has its mappings read now,
    // while it is alive: its exec and first mmaps came before our perf
    // events, and a short command may be gone before its samples are read.
    void target_changed(int64_t pid, uint32_t state);
    int start();
    void stop();
    int lookup_symbol(uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out);
    // pmc["name"] (thread_counters.h): resolved when a program compiles,
    // read in any plugin's probe context.
    int resolve_counter(const char *name, uint64_t &cookie, const char *&why);
    int read_counter(uint64_t cookie, const dtrace_event_ctx &ctx, uint64_t &value) const noexcept;

    dtrace_host *host() const { return host_; }
    const dtrace_host_ops *ops() const { return ops_; }

    void on_sample(uint64_t tag, const live::perf::Sample &sample) override;
    void on_comm(const live::perf::CommRecord &comm) override;
    void on_task(const live::perf::TaskRecord &task) override;
    void on_mmap(const live::perf::MmapRecord &mmap) override;
    void on_lost(uint32_t cpu, uint64_t count) override;
    // read_memory of a firing: curpsinfo's and curlwpsinfo's records (no
    // memory of the sampled process is read).
    static int64_t read_process_records(void *state, uint64_t address, void *buffer, size_t length);

  private:
    // Whether perf sampling works here at all (asked once).
    bool can_sample();
    // Whether the machine counts `counter`, asked once per counter.
    bool countable(const Counter &counter, std::string &why);
    void add_probe(const CounterProbe &probe);
    // The listing: every counter this machine can count, at its listed interval.
    void provide_listing(const char *name_pattern, bool say_why_hardware_is_missing);

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    dtrace_provider_id provider_ = 0;
    std::vector<CounterProbe> probes_;                 // a pmc probe's cookie is its index + 1
    std::map<std::string, std::string> not_countable_; // counter -> why ("" : countable)
    std::map<dtrace_probe_id, SamplingProbe> enabled_;
    std::unique_ptr<live::perf::Sampler> sampler_;
    live::stacks::StackSymbols stacks_;
    ProcessInfoTable processes_;  // the reader thread's
    live_record sampled_{};       // the sample being fired, as curpsinfo's records read it
    live::ProcessInfo records_;   // curpsinfo and curlwpsinfo of the sampled thread
    int sampling_works_ = -1;     // unknown
    std::string counter_refusal_; // why resolve_counter last refused
};

} // namespace dtrace::pmc
