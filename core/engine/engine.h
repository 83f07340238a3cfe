// engine.h: the driver interface — probes, enablings and the firing path.
//
// This is the part of DTrace that would live in the kernel: it owns the probe
// table, turns compiled clauses into enabled control blocks (ECBs) on the
// probes they match, and runs them when a probe fires, writing records into
// the per-CPU principal buffers and updating aggregations. Plugins reach it
// only through host::ProbeSink (the host translates the SDK's C tables).
//
// Concurrency: plugins fire from their own threads. One spin lock
// serialises probe context (clauses, variables, buffers, aggregations); the
// consumer takes it briefly to swap buffers and snapshot aggregations.
// DTrace's semantics do not promise more ordering than that, and one
// uncontended lock costs a few nanoseconds per firing.
//
// Probes may be registered at any time from any thread (a library loaded
// under pid, a module under fbt). The probe table reads lock-free; a probe
// registered after enable() is matched against the clauses enabled so far
// and gains their ECBs at once (enabling_lock_ serialises that with
// enable(): a probe is matched by one of the two, never by both).
#pragma once

#include "compiler/program.h"
#include "dif/vm.h"
#include "engine/aggregation_store.h"
#include "engine/buffer.h"
#include "engine/counter_reader.h"
#include "engine/destructive.h"
#include "engine/drop_counters.h"
#include "engine/options.h"
#include "engine/probe_table.h"
#include "engine/replay_backpressure.h"
#include "engine/replay_clock.h"
#include "engine/speculation.h"
#include "engine/spin_lock.h"
#include "host/probe_sink.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace dtrace::engine {

class ProbeContext;

// One clause enabled on one probe.
struct Ecb {
    uint32_t epid = 0;
    Probe *probe = nullptr;
    const compiler::Clause *clause = nullptr;
    const compiler::Program *program = nullptr;
    // Per action: its aggregation binding (Aggregate actions; empty for the others).
    std::vector<AggregationStore::Binding> aggregations;
    bool records = false;         // whether a firing writes a record (else only variables/aggregations change)
    bool aggregates_only = false; // every action aggregates (@a[k] = f(v); ...)
    // The consumer acts on aggregations when it reads this clause's record
    // (printa, clear, trunc, normalize, denormalize, setopt): a replay waits
    // for that (replay_backpressure.h).
    bool consumer_reads_aggregations = false;
    // No predicate, and every action a direct aggregation (AggregationStore::
    // Binding::direct: @ = count(), @[arg0] = sum(arg1)): run_ecbs() applies
    // them itself, the clause's commonest shape at event rate.
    bool direct_aggregations = false;
};

// The reserved enabled-probe id of the records that report faults.
constexpr uint32_t kErrorEpid = 1;

// The DIF offset of a fault that is the action's own (an illegal
// speculation id, a bad signal): the message then names no offset.
constexpr uint32_t kNoDifOffset = UINT32_MAX;

// The fields of a fault record (the consumer prints DTrace's error message).
struct FaultRecord {
    uint32_t epid;  // the ECB that faulted
    int32_t action; // 1-based action index; 0: the predicate
    uint32_t pc;    // DIF instruction index
    dif::FaultKind kind;
    uint64_t address;

    static FaultRecord of(uint32_t epid, int32_t action, const dif::Fault &f) {
        return FaultRecord{epid, action, f.pc, f.kind, f.address};
    }
};

// The session's state, as DTrace's: BEGIN runs in Warmup (no other provider
// fires yet), exit() moves Active/Warmup to Draining (only the dtrace
// provider's END and ERROR still fire), END runs in Cooldown.
enum class Activity : uint8_t { Inactive, Warmup, Active, Draining, Cooldown, Stopped };

class Engine final : public host::ProbeSink {
  public:
    explicit Engine(Options &options);
    ~Engine() override;

    ProbeTable &probes() { return probes_; }
    const ProbeTable &probes() const { return probes_; }

    // Hooks for the host: asked when a probe is first enabled / last disabled.
    using EnableHook = std::function<Status(Probe &)>;
    void set_enable_hook(EnableHook hook) { enable_hook_ = std::move(hook); }
    // Asked when a probe registered after enable() has gained its ECBs (its
    // plugin armed it first), on the registering thread: the session gives it
    // what every probe enabled before tracing started got (its plugin's
    // filters, the kernel path). Empty: nothing more is done.
    using LateProbeHook = std::function<Status(Probe &)>;
    void set_late_probe_hook(LateProbeHook hook);
    // Where a replaying plugin's progress goes (set before tracing starts).
    using ProgressHook = std::function<void(uint64_t done, uint64_t total, uint64_t events)>;
    void set_progress_hook(ProgressHook hook) { progress_hook_ = std::move(hook); }
    // Who answers pmc["name"] in probe context (set before tracing starts;
    // without one such a read faults).
    void set_counter_reader(const CounterReader *reader) { counter_reader_ = reader; }

    // Why enable() failed. `unmatched_line` is the line of a clause whose
    // description matched nothing (the error compilers report with a line),
    // 0 for the other failures.
    struct EnableFailure {
        std::string reason;
        int unmatched_line = 0;
    };
    // Enables every clause of `program` on the probes its descriptions match.
    // Returns the number of probes matched.
    Result<int, EnableFailure> enable(const compiler::Program &program, bool allow_zero_matches);

    // What keeps tracing from starting (destructive actions without -w,
    // buffers too small...), as DTrace words it; nullopt when it may start.
    std::optional<std::string> refuse_start() const;
    // Starts tracing: sizes buffers from the options and fires BEGIN (when
    // replaying, at the first replayed event, on its time: replay_clock.h).
    void go();
    // Stops tracing: fires END (unless BEGIN never ran), then no more firings.
    void stop();

    Activity activity() const { return activity_.load(std::memory_order_acquire); }
    bool exit_requested() const { return exit_requested_.load(std::memory_order_acquire); }
    // bufpolicy=fill: a principal buffer is full; the session ends as after exit().
    bool buffer_filled() const { return buffer_filled_.load(std::memory_order_acquire); }
    // Wakes whoever waits in wait_for_work() (exit(), input end, a buffer
    // filling up, a signal).
    void notify();
    void wait_for_work(int64_t timeout_ns);

    // Consumer side.
    struct CpuData {
        uint32_t cpu;
        std::vector<uint8_t> records;
        uint64_t drops;
        // CPU 0's only: events the replayed trace's logger lost, as reported
        // by the time of this take (so reported after the records before it).
        uint64_t trace_logger_lost = 0;
    };
    std::vector<CpuData> take_buffers();
    // The consumer has carried out the records of the buffers it took.
    void buffers_consumed() { backpressure_.buffers_consumed(); }
    // The consumer reads no more: a replay waiting for it goes on.
    void consumer_stopping() { backpressure_.release(); }
    std::vector<AggregationStore::Snapshot> snapshot_aggregations();
    // The consumer's clear() and trunc() of one aggregation of `program`.
    void clear_aggregation(const compiler::Program &program, uint32_t id);
    void remove_aggregation_keys(const compiler::Program &program, uint32_t id, const std::vector<std::string> &keys);
    uint64_t take_dynvar_drops();
    uint64_t take_aggregation_drops();
    uint64_t take_corrupt_drops(); // input a replaying plugin skipped as corrupt
    uint64_t take_speculative_drops();
    uint64_t take_failed_speculations(); // speculation() found no free speculation
    uint64_t take_double_errors();       // faults in ERROR clauses
    // A replay waits for the consumer to switch buffers rather than drop records.
    bool drain_wanted() const { return backpressure_.wanted(); }
    const Ecb *ecb(uint32_t epid) const { return epid >= 2 && epid - 2 < ecbs_.size() ? &ecbs_[epid - 2] : nullptr; }

    // host::ProbeSink
    Result<dtrace_provider_id> add_provider(host::LoadedPlugin &owner, const dtrace_provider_info &info) override;
    dtrace_probe_id add_probe(dtrace_provider_id provider, const host::ProbeInfo &probe) override;
    dtrace_probe_id lookup_probe(dtrace_provider_id provider, std::string_view module, std::string_view function,
                                 std::string_view name) const override;
    void fire(dtrace_probe_id probe, const dtrace_event_ctx &ctx) override;
    void report_drops(uint32_t cpu, uint64_t count, dtrace_drop_kind kind) override;
    const char *option(std::string_view name) const override;
    void input_finished() override;
    void remove_provider(dtrace_provider_id provider) override;
    Status add_library(std::string_view name, std::string_view source) override {
        return probes_.add_library(name, source);
    }
    int add_trace_timer(dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags) override;
    void report_progress(uint64_t done, uint64_t total, uint64_t events) override {
        if (progress_hook_)
            progress_hook_(done, total, events);
    }
    bool probe_usage(dtrace_probe_id probe, dtrace_probe_usage &out) override;

    // The ids of the dtrace provider's probes (registered first: 1, 2, 3).
    void set_core_probes(dtrace_probe_id begin, dtrace_probe_id end, dtrace_probe_id error);

    // The in-kernel fast path (core/fastpath): what its programs counted is
    // merged in before the consumer reads aggregations (`before_snapshot`)
    // or drops (`before_drops`). Set before tracing starts; empty: none.
    void set_kernel_hooks(std::function<void()> before_snapshot, std::function<void()> before_drops) {
        before_snapshot_ = std::move(before_snapshot);
        before_drops_ = std::move(before_drops);
    }
    // Folds `data` into aggregation `id` of `program` at `key`.
    void merge_aggregation(const compiler::Program &program, uint32_t id, std::string_view key,
                           std::span<const int64_t> data);
    // Drops the kernel counted: aggregation entries and dynamic variables that found no room.
    void add_kernel_drops(uint64_t aggregation, uint64_t dynvar);
    // The records the kernel wrote are appended before the consumer takes
    // the buffers (`before_take`). Set before tracing starts; empty: none.
    void set_kernel_record_hook(std::function<void()> before_take) { before_take_ = std::move(before_take); }
    // One record of `epid` the kernel wrote on `cpu`, appended as
    // run_actions() writes one (the integers and strings in order), while
    // tracing is active or draining (the kernel's programs run until the
    // plugins stop).
    using RecordValue = std::variant<uint64_t, std::string_view>;
    void append_kernel_record(uint32_t cpu, uint32_t epid, uint64_t timestamp, std::span<const RecordValue> values);
    // A fault the kernel's program met on `cpu` (copyinstr() of a bad
    // address): the error record and the ERROR probe, as record_fault().
    void report_kernel_fault(uint32_t cpu, uint64_t timestamp, const FaultRecord &fault);

  private:
    // A clause's probe description as enabled, kept to match later probes.
    struct Enabling {
        const compiler::Program *program;
        const compiler::Clause *clause;
        ProbeDescription desc;
        int matched = 0; // ECBs made from it
    };
    // Enables `enabling`'s clause on `probe` (arming the probe first if it
    // had no ECB). Fails when the plugin could not arm it.
    Status attach(Enabling &enabling, Probe &probe);
    void configure_buffers(std::vector<PrincipalBuffer> &buffers, size_t from) const;
    void fire_live(Probe &probe, const dtrace_event_ctx &ctx);
    void fire_replayed(Probe &probe, const dtrace_event_ctx &ctx);
    void run_ecbs(Probe &probe, const dtrace_event_ctx &ctx);
    void run_direct_ecbs(Probe &probe, const dtrace_event_ctx &ctx);
    // Whether the plugin left the times or a known CPU to the host (run_ecbs() fills them in).
    bool needs_filling(const dtrace_event_ctx &ctx) const {
        return ctx.timestamp == 0 || ctx.walltimestamp == 0 || ctx.cpu >= buffers_.size();
    }
    void apply_direct_clause(const Ecb &ecb, ProbeContext &env);
    bool fires_while(Activity activity, const Probe &probe) const;
    bool run_ecb(const Ecb &ecb, const dtrace_event_ctx &ctx, ProbeContext &env, FaultRecord &fault);
    bool run_actions(const Ecb &ecb, const dtrace_event_ctx &ctx, ProbeContext &env, FaultRecord &fault);
    void record_fault(const dtrace_event_ctx &ctx, const FaultRecord &fault);
    void fire_internal(dtrace_probe_id probe, const uint64_t *args, uint32_t nargs);
    // Replayed firings, with lock_ held by `guard` (released while waiting for the consumer).
    using ReplayGuard = std::unique_lock<SpinLock>;
    [[gnu::noinline]] void fire_before_event(const dtrace_event_ctx &ctx, bool timers, bool begin);
    [[gnu::noinline]] void wait_after_event();
    void fire_held_begin(const dtrace_event_ctx &first, ReplayGuard &guard);
    void fire_trace_timers(const dtrace_event_ctx &ctx, ReplayGuard &guard);
    void sync_with_consumer(ReplayGuard &guard);
    // After a record went to a principal buffer: whether it is now full
    // enough for a replay to wait for the consumer.
    void note_fill(const PrincipalBuffer &buffer) { drain_due_ |= buffer.drain_due(); }

    Options &options_;
    ProbeTable probes_;
    std::recursive_mutex enabling_lock_; // held by enable() and add_probe() while they make ECBs
    std::deque<Enabling> enablings_;     // under enabling_lock_
    StableVector<Ecb> ecbs_;             // appended under enabling_lock_ and lock_; read lock-free by epid
    EnableHook enable_hook_;
    LateProbeHook late_probe_hook_; // under enabling_lock_
    ProgressHook progress_hook_;
    const CounterReader *counter_reader_ = nullptr;
    std::unique_ptr<dif::Vm> vm_;
    AggregationStore aggregations_;
    std::vector<PrincipalBuffer> buffers_;
    BufferConfig buffer_config_;
    Speculations speculations_;
    Chill chill_;
    std::atomic<bool> buffer_filled_{false};
    dtrace_probe_id begin_probe_ = 0, end_probe_ = 0, error_probe_ = 0;
    bool in_error_probe_ = false; // a fault inside an ERROR clause does not fire ERROR again
    DropCounters drops_;          // under lock_

    // Replays only (replay_clock.h, replay_backpressure.h); live firings never touch them.
    ReplayClock replay_clock_;        // under lock_ (the times it notes: atomics)
    ReplayBackpressure backpressure_; // its own locks
    bool consumer_sync_due_ = false;  // under lock_: a clause recorded what the consumer does to aggregations

    mutable SpinLock lock_; // probe context
    std::atomic<Activity> activity_{Activity::Inactive};
    std::atomic<bool> exit_requested_{false};
    uint64_t sequence_ = 0;  // next record's sequence number
    bool drain_due_ = false; // under lock_: a principal buffer reached its drain mark since the last switch

    std::function<void()> before_snapshot_, before_drops_, before_take_;
    std::atomic<uint64_t> kernel_aggregation_drops_{0}, kernel_dynvar_drops_{0};

    std::mutex wake_lock_;
    std::condition_variable wake_;
    bool wake_pending_ = false;
};

} // namespace dtrace::engine
