// engine.cpp: enabling clauses and running them when probes fire.
#include "engine/engine.h"

#include "common/own_process.h"
#include "compiler/action_traits.h"
#include "dif/validator.h"
#include "engine/enable_checks.h"
#include "engine/probe_context.h"
#include "engine/probe_usage.h"
#include "engine/resource_sizing.h"
#include "engine/unmatched_hint.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <iterator>
#include <unistd.h>

namespace dtrace::engine {

namespace {

constexpr uint32_t kFirstUserEpid = 2;   // epid 1 is the fault-reporting ECB, as in DTrace
constexpr uint32_t kMaxTraceCpus = 1024; // CPU numbers of replayed traces kept as they are

bool records_anything(const compiler::Clause &clause) {
    for (const compiler::Action &a : clause.actions) {
        if (compiler::writes_record(a.kind))
            return true;
    }
    return clause.actions.empty();
}

bool consumer_reads_aggregations(const compiler::Clause &clause) {
    return std::any_of(clause.actions.begin(), clause.actions.end(),
                       [](const auto &a) { return compiler::action_traits(a.kind).consumer_reads_aggregations; });
}

bool aggregates_only(const compiler::Clause &clause) {
    return !clause.actions.empty() && std::all_of(clause.actions.begin(), clause.actions.end(), [](const auto &a) {
        return a.kind == compiler::ActionKind::Aggregate;
    });
}

} // namespace

Engine::Engine(Options &options) : options_(options) {}

Engine::~Engine() = default;

void Engine::set_core_probes(dtrace_probe_id begin, dtrace_probe_id end, dtrace_probe_id error) {
    begin_probe_ = begin;
    end_probe_ = end;
    error_probe_ = error;
}

namespace {

// Every DIF object is validated before any of it can run: the VM is safe on
// any input, but only validated code is guaranteed to mean what it says.
Status validate_program(const compiler::Program &program) {
    std::string error;
    auto check = [&](const dif::Difo &difo) {
        dif::ValidationResult result = dif::validate(difo);
        if (!result.ok())
            error = "DIF validation failed: " + result.errors.front().to_string();
        return result.ok();
    };
    for (const compiler::Clause &clause : program.clauses) {
        if (clause.predicate && !check(*clause.predicate))
            return Failure{error};
        for (const compiler::Action &action : clause.actions) {
            if (action.value && !check(*action.value))
                return Failure{error};
            for (const dif::Difo &d : action.args)
                if (!check(d))
                    return Failure{error};
            for (const dif::Difo &d : action.agg_args)
                if (!check(d))
                    return Failure{error};
        }
    }
    return {};
}

} // namespace

Result<int, Engine::EnableFailure> Engine::enable(const compiler::Program &program, bool allow_zero_matches) {
    if (Status valid = validate_program(program); !valid)
        return EnableFailure{valid.reason()};
    std::lock_guard enabling(enabling_lock_);
    {
        std::lock_guard guard(lock_);
        aggregations_.add_program(program);
    }
    int matched = 0;
    for (const compiler::Clause &clause : program.clauses) {
        for (const std::string &text : clause.probes) {
            Result<ProbeDescription> desc = parse_probe_description(text, SpecKind::Name);
            if (!desc)
                return EnableFailure{desc.reason()};
            // Registered before the walk: a probe that arming another one
            // registers (on this thread) is matched by add_probe() instead.
            Enabling &e = enablings_.emplace_back(Enabling{&program, &clause, std::move(*desc)});
            Status armed;
            probes_.for_each_match(e.desc, [&](Probe &probe) {
                if (armed)
                    armed = attach(e, probe);
            });
            if (!armed)
                return EnableFailure{armed.reason()};
            if (e.matched == 0 && !allow_zero_matches) {
                std::string reason = "probe description " + e.desc.to_string() + " does not match any probes" +
                                     unmatched_hint(probes_, e.desc);
                enablings_.pop_back();
                return EnableFailure{std::move(reason), clause.line};
            }
            matched += e.matched;
        }
    }
    return matched;
}

Status Engine::attach(Enabling &enabling, Probe &probe) {
    if (probe.ecbs.empty() && enable_hook_)
        if (Status armed = enable_hook_(probe); !armed)
            return armed;
    Ecb *ecb = ecbs_.prepare();
    if (!ecb)
        return Failure{"too many enabled probes"};
    const compiler::Clause &clause = *enabling.clause;
    ecb->epid = kFirstUserEpid + static_cast<uint32_t>(ecbs_.size());
    ecb->probe = &probe;
    ecb->clause = &clause;
    ecb->program = enabling.program;
    ecb->records = records_anything(clause);
    ecb->aggregates_only = aggregates_only(clause);
    ecb->consumer_reads_aggregations = consumer_reads_aggregations(clause);
    std::lock_guard guard(lock_);
    for (const compiler::Action &action : clause.actions)
        ecb->aggregations.push_back(action.kind == compiler::ActionKind::Aggregate
                                        ? aggregations_.bind(*enabling.program, action)
                                        : AggregationStore::Binding{});
    ecb->direct_aggregations = ecb->aggregates_only && !clause.predicate &&
                               std::all_of(ecb->aggregations.begin(), ecb->aggregations.end(),
                                           [](const AggregationStore::Binding &b) { return b.direct; });
    ecbs_.publish();
    probe.direct_only = (probe.ecbs.empty() || probe.direct_only) && ecb->direct_aggregations;
    probe.ecbs.push_back(ecb);
    probe.enabled.store(true, std::memory_order_release);
    enabling.matched++;
    return {};
}

void Engine::go() {
    {
        std::lock_guard guard(lock_);
        dif::VmConfig config;
        config.strsize = static_cast<uint32_t>(options_.number("strsize"));
        config.dynvarsize = static_cast<size_t>(options_.number("dynvarsize"));
        vm_ = std::make_unique<dif::Vm>(config);
        buffer_config_.bytes = static_cast<size_t>(options_.number("bufsize"));
        const std::string *policy = options_.text("bufpolicy");
        buffer_config_.policy =
            policy ? parse_buffer_policy(*policy).value_or(BufferPolicy::Switch) : BufferPolicy::Switch;
        const std::string *resize = options_.text("bufresize");
        buffer_config_.auto_resize = !resize || *resize != "manual";
        const Probe *end = probes_.probe(end_probe_);
        buffer_config_.reserve = end ? end_reserve({end->ecbs.begin(), end->ecbs.end()}, config.strsize) : 0;
        buffers_ = std::vector<PrincipalBuffer>(online_cpus()); // move-only: each owns its memory
        configure_buffers(buffers_, 0);
        speculations_.configure(static_cast<uint32_t>(options_.number("nspec")),
                                static_cast<size_t>(options_.number("specsize")));
        aggregations_.set_limit(static_cast<size_t>(options_.number("aggsize")));
    }
    activity_.store(Activity::Warmup, std::memory_order_release);
    if (options_.is_set("replay")) {
        replay_clock_.hold_begin(); // fire_held_begin(), at the first replayed event
        return;
    }
    fire_internal(begin_probe_, nullptr, 0);
    Activity expected = Activity::Warmup;
    activity_.compare_exchange_strong(expected, Activity::Active, std::memory_order_acq_rel);
}

void Engine::configure_buffers(std::vector<PrincipalBuffer> &buffers, size_t from) const {
    for (size_t i = from; i < buffers.size(); i++)
        buffers[i].configure(buffer_config_);
}

std::optional<std::string> Engine::refuse_start() const {
    std::vector<const Ecb *> all, end;
    ecbs_.for_each([&](const Ecb &ecb) {
        all.push_back(&ecb);
        if (ecb.probe->id == end_probe_)
            end.push_back(&ecb);
    });
    return check_enablings(all, end, options_);
}

void Engine::stop() {
    Activity now = activity_.load(std::memory_order_acquire);
    if (now == Activity::Stopped || now == Activity::Inactive)
        return;
    backpressure_.release(); // nothing waits for the consumer from here on
    if (replay_clock_.begin_held()) {
        // A replay that fired no event: BEGIN still runs before END.
        activity_.store(Activity::Warmup, std::memory_order_release);
        ReplayGuard guard(lock_);
        fire_held_begin(dtrace_event_ctx{}, guard);
    }
    {
        // END may use the room fill buffers kept for it.
        std::lock_guard guard(lock_);
        for (PrincipalBuffer &b : buffers_)
            b.release_reserve();
    }
    activity_.store(Activity::Cooldown, std::memory_order_release);
    fire_internal(end_probe_, nullptr, 0);
    activity_.store(Activity::Stopped, std::memory_order_release);
}

void Engine::fire_internal(dtrace_probe_id probe, const uint64_t *args, uint32_t nargs) {
    dtrace_event_ctx ctx = common::own_process_context();
    {
        // While replaying, END happens at the trace's last moment, not now.
        std::lock_guard guard(lock_);
        ctx.timestamp = replay_clock_.last_time();
        ctx.walltimestamp = replay_clock_.last_wall();
    }
    ctx.args = args;
    ctx.nargs = nargs;
    fire(probe, ctx);
}

// Only dispatches (both calls are tail calls): the hot path keeps no frame here.
void Engine::fire(dtrace_probe_id id, const dtrace_event_ctx &ctx) {
    Activity activity = activity_.load(std::memory_order_acquire);
    if (activity == Activity::Inactive || activity == Activity::Stopped)
        return;
    Probe *probe = probes_.probe(id);
    if (!probe)
        return;
    if (ctx.flags & DTRACE_EVENT_REPLAYED)
        fire_replayed(*probe, ctx);
    else if (probe->enabled.load(std::memory_order_relaxed))
        fire_live(*probe, ctx);
}

void Engine::fire_live(Probe &probe, const dtrace_event_ctx &ctx) {
    std::lock_guard guard(lock_);
    run_ecbs(probe, ctx);
}

// A replayed event also moves trace time (firing the trace timers due
// before it), fires BEGIN if it is the first, and may have to wait for the
// consumer (replay_backpressure.h).
void Engine::fire_replayed(Probe &probe, const dtrace_event_ctx &ctx) {
    replay_clock_.note(ctx); // END's time, whatever fires
    const bool timers = (ctx.flags & DTRACE_EVENT_BEFORE_DATA) == 0 && replay_clock_.has_timers();
    const bool begin = replay_clock_.begin_held();
    if (!probe.enabled.load(std::memory_order_relaxed) && !timers && !begin)
        return;
    lock_.lock();
    if (timers || begin)
        fire_before_event(ctx, timers, begin);
    if (probe.direct_only && !needs_filling(ctx))
        run_direct_ecbs(probe, ctx); // inline: the commonest replayed firing keeps this one frame
    else if (!probe.ecbs.empty())
        run_ecbs(probe, ctx);
    if ((consumer_sync_due_ | drain_due_) && buffer_config_.policy != BufferPolicy::Ring)
        wait_after_event(); // unlocks
    else
        lock_.unlock();
}

// What fires before a replayed event (with lock_ held): BEGIN at the first,
// the trace timers due. Each firing may wait for the consumer, with the lock
// released meanwhile. Out of line: the common replayed firing has neither.
void Engine::fire_before_event(const dtrace_event_ctx &ctx, bool timers, bool begin) {
    ReplayGuard guard(lock_, std::adopt_lock);
    if (begin)
        fire_held_begin(ctx, guard);
    if (timers)
        fire_trace_timers(ctx, guard);
    guard.release(); // still locked
}

// A replayed event's own wait (entered with lock_ held, returns with it
// released): for the consumer to carry out what a clause recorded for it, or
// for a buffer switch when a buffer is three quarters full (noted as records
// are written: note_fill()), rather than drop records. A ring buffer
// overwrites instead, and is never waited for.
void Engine::wait_after_event() {
    const bool sync = std::exchange(consumer_sync_due_, false);
    const uint64_t generation = sync ? backpressure_.next_take() : backpressure_.current_take();
    lock_.unlock();
    if (sync)
        backpressure_.wait_for_consumer(generation, [this] { notify(); });
    else
        backpressure_.wait_for_drain(generation, [this] { notify(); });
}

// BEGIN of a replay, on the trace's time: the first replayed event's.
void Engine::fire_held_begin(const dtrace_event_ctx &first, ReplayGuard &guard) {
    replay_clock_.begin_fired();
    dtrace_event_ctx begin = common::own_process_context();
    begin.timestamp = first.timestamp;
    begin.walltimestamp = first.walltimestamp;
    if (Probe *probe = probes_.probe(begin_probe_); probe && !probe->ecbs.empty())
        run_ecbs(*probe, begin);
    sync_with_consumer(guard);
    Activity expected = Activity::Warmup;
    activity_.compare_exchange_strong(expected, Activity::Active, std::memory_order_acq_rel);
}

// Fires every trace timer whose time has come, at its own timestamp, before
// the event at ctx.timestamp runs: replayed ticks interleave with the events
// as they would have live, each seeing the aggregations as they are then.
void Engine::fire_trace_timers(const dtrace_event_ctx &ctx, ReplayGuard &guard) {
    replay_clock_.advance(ctx, [&](dtrace_probe_id id, const dtrace_event_ctx &tick) {
        Probe *probe = probes_.probe(id);
        if (probe && !probe->ecbs.empty()) {
            run_ecbs(*probe, tick);
            sync_with_consumer(guard);
        }
    });
}

// After a replayed firing recorded what the consumer does to aggregations
// (printa, clear ...): wait until it has done it, so that it reads them as
// they were at the firing, whatever the switch rate. A ring buffer is read
// only at the end.
void Engine::sync_with_consumer(ReplayGuard &guard) {
    if (!consumer_sync_due_)
        return;
    consumer_sync_due_ = false;
    if (buffer_config_.policy == BufferPolicy::Ring)
        return;
    const uint64_t generation = backpressure_.next_take();
    guard.unlock();
    backpressure_.wait_for_consumer(generation, [this] { notify(); });
    guard.lock();
}

int Engine::add_trace_timer(dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags) {
    if (!options_.is_set("replay") || !probes_.probe(probe))
        return -1;
    std::lock_guard guard(lock_);
    return replay_clock_.add_timer(probe, interval_ns, (flags & DTRACE_TIMER_PER_CPU) != 0) ? 0 : -1;
}

// DTrace's activity rules: while not Active only the dtrace provider fires,
// and once a BEGIN clause called exit() later BEGIN clauses are skipped.
bool Engine::fires_while(Activity activity, const Probe &probe) const {
    if (activity == Activity::Active)
        return true;
    if (activity == Activity::Stopped || activity == Activity::Inactive)
        return false;
    if (probe.id == begin_probe_)
        return activity == Activity::Warmup;
    return probe.id == end_probe_ || probe.id == error_probe_;
}

// What run_ecbs() does for a probe of direct clauses only
// (Probe::direct_only) and a context it need not fill in: no VM state to
// reset, as no DIFO runs.
[[gnu::always_inline]] inline void Engine::run_direct_ecbs(Probe &probe, const dtrace_event_ctx &ctx) {
    ProbeContext env(*vm_, probe, ctx, 0, speculations_, counter_reader_);
    for (const Ecb *ecb : probe.ecbs) {
        const Activity now = activity_.load(std::memory_order_relaxed);
        if (now == Activity::Active || fires_while(now, probe))
            apply_direct_clause(*ecb, env);
    }
}

// What run_ecb() would do for a clause of direct aggregations, without a DIFO to run.
inline void Engine::apply_direct_clause(const Ecb &ecb, ProbeContext &env) {
    env.begin_direct_clause(ecb.epid); // the next clause that runs one begins its own
    for (const AggregationStore::Binding &binding : ecb.aggregations)
        aggregations_.apply_direct(binding, env);
}

void Engine::run_ecbs(Probe &probe, const dtrace_event_ctx &ctx) {
    // Fill in what the plugin left to the host; copy the context only then.
    dtrace_event_ctx filled;
    const dtrace_event_ctx *event = &ctx;
    if (needs_filling(ctx)) {
        filled = ctx;
        if (filled.timestamp == 0)
            filled.timestamp = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                         std::chrono::steady_clock::now().time_since_epoch())
                                                         .count());
        if (filled.walltimestamp == 0)
            filled.walltimestamp = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                             std::chrono::system_clock::now().time_since_epoch())
                                                             .count());
        // A replayed trace keeps its own CPU numbers (up to a bound); live
        // CPUs beyond the configured ones fold onto them.
        if (filled.cpu >= buffers_.size() && (ctx.flags & DTRACE_EVENT_REPLAYED) && filled.cpu < kMaxTraceCpus) {
            size_t old = buffers_.size();
            buffers_.resize(filled.cpu + 1);
            configure_buffers(buffers_, old);
        }
        if (filled.cpu >= buffers_.size())
            filled.cpu %= static_cast<uint32_t>(buffers_.size());
        event = &filled;
    }
    vm_->begin_firing(); // this-> variables live across the clauses of one firing
    ProbeContext env(*vm_, probe, *event, 0, speculations_, counter_reader_);
    for (Ecb *ecb : probe.ecbs) {
        // exit() in one clause changes what the next ones may do.
        const Activity now = activity_.load(std::memory_order_relaxed);
        if (now != Activity::Active && !fires_while(now, probe))
            continue;
        if (ecb->direct_aggregations) {
            apply_direct_clause(*ecb, env);
            continue;
        }
        FaultRecord fault{};
        if (!run_ecb(*ecb, *event, env, fault))
            record_fault(*event, fault);
    }
}

// Runs one clause. Returns false with `fault` filled when the clause faulted
// (its record is then discarded).
bool Engine::run_ecb(const Ecb &ecb, const dtrace_event_ctx &ctx, ProbeContext &env, FaultRecord &fault) {
    vm_->begin_clause();
    env.begin_clause(ecb.epid);
    if (const std::optional<dif::Difo> &predicate = ecb.clause->predicate) {
        dif::Fault f;
        uint64_t pass = vm_->run(*predicate, env, f);
        if (f.kind != dif::FaultKind::None) {
            fault = FaultRecord::of(ecb.epid, 0, f);
            return false;
        }
        if (pass == 0)
            return true;
    }
    if (!ecb.aggregates_only)
        return run_actions(ecb, ctx, env, fault);
    // A clause of aggregating actions only, the commonest kind at event
    // rate: no record to write, none of run_actions()' bookkeeping.
    for (size_t i = 0; i < ecb.aggregations.size(); i++) {
        dif::Fault f;
        const AggregationStore::Binding &binding = ecb.aggregations[i];
        if (!binding.aggregation || !aggregations_.apply(binding, *vm_, env, f)) {
            fault = FaultRecord::of(ecb.epid, static_cast<int32_t>(i + 1), f);
            return false;
        }
    }
    return true;
}

void Engine::notify() {
    {
        std::lock_guard guard(wake_lock_);
        wake_pending_ = true;
    }
    wake_.notify_all();
}

void Engine::wait_for_work(int64_t timeout_ns) {
    std::unique_lock guard(wake_lock_);
    wake_.wait_for(guard, std::chrono::nanoseconds(timeout_ns), [this] { return wake_pending_; });
    wake_pending_ = false;
}

std::vector<Engine::CpuData> Engine::take_buffers() {
    if (before_take_)
        before_take_();
    std::vector<CpuData> out;
    std::lock_guard guard(lock_);
    backpressure_.buffers_taken();
    drain_due_ = false; // every principal buffer is taken (a ring one is never waited for)
    // A ring buffer is read once, when tracing has stopped.
    if (buffer_config_.policy == BufferPolicy::Ring && activity_.load(std::memory_order_acquire) != Activity::Stopped)
        return out;
    for (uint32_t cpu = 0; cpu < buffers_.size(); cpu++) {
        CpuData data{cpu, {}, 0};
        buffers_[cpu].swap(data.records, data.drops);
        if (cpu == 0) {
            data.drops += std::exchange(drops_.reported, 0);
            data.trace_logger_lost = std::exchange(drops_.trace_logger, 0);
        }
        out.push_back(std::move(data));
    }
    return out;
}

std::vector<AggregationStore::Snapshot> Engine::snapshot_aggregations() {
    if (before_snapshot_)
        before_snapshot_();
    std::lock_guard guard(lock_);
    return aggregations_.snapshot();
}

void Engine::clear_aggregation(const compiler::Program &program, uint32_t id) {
    std::lock_guard guard(lock_);
    if (AggregationStore::Aggregation *a = aggregations_.resolve(program, id))
        aggregations_.clear(*a);
}

void Engine::remove_aggregation_keys(const compiler::Program &program, uint32_t id,
                                     const std::vector<std::string> &keys) {
    std::lock_guard guard(lock_);
    if (AggregationStore::Aggregation *a = aggregations_.resolve(program, id))
        aggregations_.remove(*a, keys);
}

uint64_t Engine::take_aggregation_drops() {
    if (before_drops_)
        before_drops_();
    std::lock_guard guard(lock_);
    return aggregations_.take_drops() + kernel_aggregation_drops_.exchange(0);
}

uint64_t Engine::take_dynvar_drops() {
    if (before_drops_)
        before_drops_();
    std::lock_guard guard(lock_);
    return (vm_ ? vm_->variables().take_drops() : 0) + kernel_dynvar_drops_.exchange(0);
}

void Engine::merge_aggregation(const compiler::Program &program, uint32_t id, std::string_view key,
                               std::span<const int64_t> data) {
    std::lock_guard guard(lock_);
    if (AggregationStore::Aggregation *a = aggregations_.resolve(program, id))
        aggregations_.merge(*a, key, data);
}

void Engine::add_kernel_drops(uint64_t aggregation, uint64_t dynvar) {
    kernel_aggregation_drops_ += aggregation;
    kernel_dynvar_drops_ += dynvar;
}

Result<dtrace_provider_id> Engine::add_provider(host::LoadedPlugin &owner, const dtrace_provider_info &info) {
    return probes_.add_provider(&owner, info);
}

// A probe registered after clauses were enabled gains the ECBs of those
// whose descriptions match it, in enabling order, and fires from then on.
dtrace_probe_id Engine::add_probe(dtrace_provider_id provider, const host::ProbeInfo &info) {
    std::lock_guard enabling(enabling_lock_);
    bool added = false;
    const dtrace_probe_id id = probes_.add_probe(provider, info, &added);
    if (!added || enablings_.empty())
        return id;
    Probe &probe = *probes_.probe(id);
    for (Enabling &e : enablings_) {
        if (!ProbeTable::matches(e.desc, probe))
            continue;
        if (Status armed = attach(e, probe); !armed) {
            report_error(probe.provider->name, armed.reason());
            break;
        }
    }
    if (!probe.ecbs.empty() && late_probe_hook_)
        if (Status done = late_probe_hook_(probe); !done)
            report_error(probe.provider->name, done.reason());
    return id;
}

void Engine::set_late_probe_hook(LateProbeHook hook) {
    std::lock_guard enabling(enabling_lock_); // not while add_probe() runs it
    late_probe_hook_ = std::move(hook);
}

bool Engine::probe_usage(dtrace_probe_id id, dtrace_probe_usage &out) {
    std::lock_guard enabling(enabling_lock_); // ECBs are added under it
    const Probe *probe = probes_.probe(id);
    if (probe == nullptr)
        return false;
    const dtrace_probe_usage usage = usage_of(*probe, static_cast<uint32_t>(options_.number("strsize")));
    out.flags = usage.flags;
    out.string_args = usage.string_args;
    if (out.struct_size >= offsetof(dtrace_probe_usage, fetches) + sizeof usage.fetches) {
        out.nfetches = usage.nfetches;
        std::copy(std::begin(usage.fetches), std::end(usage.fetches), std::begin(out.fetches));
    }
    return true;
}

dtrace_probe_id Engine::lookup_probe(dtrace_provider_id provider, std::string_view module, std::string_view function,
                                     std::string_view name) const {
    return probes_.lookup(provider, module, function, name);
}

void Engine::report_drops(uint32_t cpu, uint64_t count, dtrace_drop_kind kind) {
    std::lock_guard guard(lock_);
    switch (kind) {
    case DTRACE_DROP_PRINCIPAL:
        drops_.reported += count;
        return;
    case DTRACE_DROP_CORRUPT:
        drops_.corrupt += count;
        return;
    case DTRACE_DROP_LOGGER:
        drops_.trace_logger += count;
        return;
    }
    drops_.reported += count; // a kind from a newer SDK: still a loss
}

void Engine::append_kernel_record(uint32_t cpu, uint32_t epid, uint64_t timestamp,
                                  std::span<const RecordValue> values) {
    std::lock_guard guard(lock_);
    const Activity now = activity_.load(std::memory_order_acquire);
    if ((now != Activity::Active && now != Activity::Draining) || buffers_.empty())
        return;
    PrincipalBuffer &out = buffers_[cpu < buffers_.size() ? cpu : 0];
    out.begin(epid, timestamp, sequence_++);
    for (const RecordValue &v : values) {
        if (const uint64_t *integer = std::get_if<uint64_t>(&v))
            out.put_integer(*integer);
        else
            out.put_bytes(std::get<std::string_view>(v).data(),
                          static_cast<uint32_t>(std::get<std::string_view>(v).size()));
    }
    if (!out.end() && out.full()) {
        buffer_filled_.store(true, std::memory_order_release);
        notify();
    }
    note_fill(out);
}

void Engine::report_kernel_fault(uint32_t cpu, uint64_t timestamp, const FaultRecord &fault) {
    std::lock_guard guard(lock_);
    const Activity now = activity_.load(std::memory_order_acquire);
    if ((now != Activity::Active && now != Activity::Draining) || buffers_.empty())
        return;
    dtrace_event_ctx ctx{};
    ctx.struct_size = sizeof ctx;
    ctx.cpu = cpu < buffers_.size() ? cpu : 0;
    ctx.timestamp = timestamp;
    ctx.pid = ctx.ppid = ctx.tid = ctx.uid = ctx.gid = -1;
    record_fault(ctx, fault);
}

uint64_t Engine::take_double_errors() {
    std::lock_guard guard(lock_);
    return std::exchange(drops_.double_errors, 0);
}

uint64_t Engine::take_speculative_drops() {
    std::lock_guard guard(lock_);
    return speculations_.take_drops();
}

uint64_t Engine::take_failed_speculations() {
    std::lock_guard guard(lock_);
    return speculations_.take_unavailable();
}

uint64_t Engine::take_corrupt_drops() {
    std::lock_guard guard(lock_);
    return std::exchange(drops_.corrupt, 0);
}

const char *Engine::option(std::string_view name) const {
    const std::string *text = options_.text(name);
    return text ? text->c_str() : nullptr;
}

void Engine::remove_provider(dtrace_provider_id provider) {
    probes_.withdraw_provider(provider);
}

void Engine::input_finished() {
    Activity current = activity_.load(std::memory_order_acquire);
    if (current == Activity::Active || current == Activity::Warmup)
        activity_.store(Activity::Draining, std::memory_order_release);
    exit_requested_.store(true, std::memory_order_release);
    notify();
}

} // namespace dtrace::engine
