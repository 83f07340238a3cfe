// engine.cpp: enabling clauses and running them when probes fire.
#include "engine/engine.h"

#include "common/own_process.h"
#include "compiler/action_traits.h"
#include "dif/validator.h"
#include "engine/enable_checks.h"
#include "engine/probe_context.h"
#include "engine/resource_sizing.h"

#include <algorithm>
#include <chrono>
#include <unistd.h>

namespace dtrace::engine {

namespace {

constexpr uint32_t kFirstUserEpid = 2;   // epid 1 is the fault-reporting ECB, as in DTrace
constexpr uint32_t kMaxTraceCpus = 1024; // CPU numbers of replayed traces kept as they are
constexpr auto kDrainWait = std::chrono::seconds(2);

bool records_anything(const compiler::Clause &clause) {
    for (const compiler::Action &a : clause.actions) {
        if (compiler::writes_record(a.kind))
            return true;
    }
    return clause.actions.empty();
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
bool validate_program(const compiler::Program &program, std::string &error) {
    auto check = [&](const dif::Difo &difo) {
        dif::ValidationResult result = dif::validate(difo);
        if (!result.ok())
            error = "DIF validation failed: " + result.errors.front().to_string();
        return result.ok();
    };
    for (const compiler::Clause &clause : program.clauses) {
        if (clause.predicate && !check(*clause.predicate))
            return false;
        for (const compiler::Action &action : clause.actions) {
            if (action.value && !check(*action.value))
                return false;
            for (const dif::Difo &d : action.args)
                if (!check(d))
                    return false;
            for (const dif::Difo &d : action.agg_args)
                if (!check(d))
                    return false;
        }
    }
    return true;
}

} // namespace

int Engine::enable(const compiler::Program &program, bool allow_zero_matches, std::string &error, int *unmatched_line) {
    if (!validate_program(program, error))
        return -1;
    std::lock_guard enabling(enabling_lock_);
    {
        std::lock_guard guard(lock_);
        aggregations_.add_program(program);
    }
    int matched = 0;
    for (const compiler::Clause &clause : program.clauses) {
        for (const std::string &text : clause.probes) {
            std::string parse_error;
            std::optional<ProbeDescription> desc = parse_probe_description(text, SpecKind::Name, parse_error);
            if (!desc) {
                error = parse_error;
                return -1;
            }
            // Registered before the walk: a probe that arming another one
            // registers (on this thread) is matched by add_probe() instead.
            Enabling &e = enablings_.emplace_back(Enabling{&program, &clause, std::move(*desc)});
            std::string hook_error;
            probes_.for_each_match(e.desc, [&](Probe &probe) {
                if (hook_error.empty())
                    attach(e, probe, hook_error);
            });
            if (!hook_error.empty()) {
                error = hook_error;
                return -1;
            }
            if (e.matched == 0 && !allow_zero_matches) {
                error = "probe description " + e.desc.to_string() + " does not match any probes";
                if (unmatched_line)
                    *unmatched_line = clause.line;
                enablings_.pop_back();
                return -1;
            }
            matched += e.matched;
        }
    }
    return matched;
}

bool Engine::attach(Enabling &enabling, Probe &probe, std::string &error) {
    if (probe.ecbs.empty() && enable_hook_ && !enable_hook_(probe, error))
        return false;
    Ecb *ecb = ecbs_.prepare();
    if (!ecb) {
        error = "too many enabled probes";
        return false;
    }
    const compiler::Clause &clause = *enabling.clause;
    ecb->epid = kFirstUserEpid + static_cast<uint32_t>(ecbs_.size());
    ecb->probe = &probe;
    ecb->clause = &clause;
    ecb->program = enabling.program;
    ecb->records = records_anything(clause);
    ecb->aggregates_only = aggregates_only(clause);
    std::lock_guard guard(lock_);
    for (const compiler::Action &action : clause.actions)
        ecb->aggregations.push_back(action.kind == compiler::ActionKind::Aggregate
                                        ? aggregations_.bind(*enabling.program, action)
                                        : AggregationStore::Binding{});
    ecbs_.publish();
    probe.ecbs.push_back(ecb);
    probe.enabled.store(true, std::memory_order_release);
    enabling.matched++;
    return true;
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
        ctx.timestamp = last_trace_time_;
        ctx.walltimestamp = last_trace_wall_;
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
// before it) and may have to wait for the consumer.
void Engine::fire_replayed(Probe &probe, const dtrace_event_ctx &ctx) {
    const bool timers =
        (ctx.flags & DTRACE_EVENT_BEFORE_DATA) == 0 && has_trace_timers_.load(std::memory_order_acquire);
    if (!probe.enabled.load(std::memory_order_relaxed) && !timers)
        return;
    uint64_t wait_for_generation = 0;
    bool must_wait = false;
    {
        std::lock_guard guard(lock_);
        last_trace_time_ = ctx.timestamp;
        last_trace_wall_ = ctx.walltimestamp;
        if (timers)
            advance_trace_time(ctx);
        if (!probe.ecbs.empty())
            run_ecbs(probe, ctx);
        // A replay can outrun the consumer; rather than drop records it
        // waits for a buffer switch when a buffer is three quarters full
        // (noted as records are written: note_fill()). A ring buffer
        // overwrites rather than waits.
        if (drain_due_ && buffer_config_.policy != BufferPolicy::Ring) {
            must_wait = true;
            wait_for_generation = drain_generation_;
        }
    }
    if (must_wait)
        wait_for_drain(wait_for_generation);
}

void Engine::wait_for_drain(uint64_t generation) {
    drain_wanted_.store(true, std::memory_order_release);
    notify();
    std::unique_lock guard(drain_lock_);
    // A consumer that never comes (it stopped) releases us after a while;
    // the records that then do not fit are counted as drops.
    drained_.wait_for(guard, kDrainWait, [&] {
        return drain_generation_seen_ != generation || activity_.load(std::memory_order_acquire) == Activity::Stopped;
    });
}

int Engine::add_trace_timer(dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags) {
    if (!options_.is_set("replay") || interval_ns == 0 || !probes_.probe(probe))
        return -1;
    std::lock_guard guard(lock_);
    trace_timers_.push_back({probe, interval_ns, (flags & DTRACE_TIMER_PER_CPU) != 0, 0});
    has_trace_timers_.store(true, std::memory_order_release);
    return 0;
}

// Fires every trace timer whose time has come, at its own timestamp, before
// the event at ctx.timestamp runs: replayed ticks interleave with the events
// as they would have live.
void Engine::advance_trace_time(const dtrace_event_ctx &ctx) {
    trace_cpus_ = std::max(trace_cpus_, ctx.cpu + 1);
    for (TraceTimer &timer : trace_timers_) {
        if (timer.next == 0)
            timer.next = ctx.timestamp + timer.interval;
        Probe *probe = probes_.probe(timer.probe);
        while (timer.next <= ctx.timestamp) {
            dtrace_event_ctx tick{};
            tick.struct_size = sizeof tick;
            tick.timestamp = timer.next;
            tick.walltimestamp = ctx.walltimestamp - ctx.timestamp + timer.next;
            tick.pid = tick.ppid = tick.tid = 0; // no thread was interrupted: report the idle one
            tick.execname = "";
            tick.flags = DTRACE_EVENT_REPLAYED;
            for (uint32_t cpu = 0; cpu < (timer.per_cpu ? trace_cpus_ : 1u); cpu++) {
                tick.cpu = timer.per_cpu ? cpu : ctx.cpu;
                if (probe && !probe->ecbs.empty())
                    run_ecbs(*probe, tick);
            }
            timer.next += timer.interval;
        }
    }
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

void Engine::run_ecbs(Probe &probe, const dtrace_event_ctx &ctx) {
    // Fill in what the plugin left to the host; copy the context only then.
    dtrace_event_ctx filled;
    const dtrace_event_ctx *event = &ctx;
    if (ctx.timestamp == 0 || ctx.walltimestamp == 0 || ctx.cpu >= buffers_.size()) {
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
    ProbeContext env(*vm_, probe, *event, 0, speculations_);
    for (Ecb *ecb : probe.ecbs) {
        // exit() in one clause changes what the next ones may do.
        const Activity now = activity_.load(std::memory_order_relaxed);
        if (now != Activity::Active && !fires_while(now, probe))
            continue;
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

// The actions of a clause whose predicate passed.
bool Engine::run_actions(const Ecb &ecb, const dtrace_event_ctx &ctx, ProbeContext &env, FaultRecord &fault) {
    dif::Vm &vm = *vm_;
    dif::Fault f;
    const compiler::Clause &clause = *ecb.clause;
    // Where the clause's record goes once the predicate passed: the CPU's
    // principal buffer, after speculate() a speculative buffer, or nowhere.
    PrincipalBuffer *out = nullptr;
    auto faulted = [&](int32_t action) {
        if (out)
            out->abandon();
        fault = FaultRecord::of(ecb.epid, action, f);
        return false;
    };
    // A fault of the action itself rather than of its DIF: no DIF offset.
    auto action_faulted = [&](int32_t action, dif::FaultKind kind) {
        f = dif::Fault{};
        f.kind = kind;
        f.pc = kNoDifOffset;
        return faulted(action);
    };
    if (ecb.records) {
        out = &buffers_[ctx.cpu];
        out->begin(ecb.epid, ctx.timestamp, sequence_++);
    }
    auto record_value = [&](const dif::Difo &difo, uint64_t value) {
        switch (difo.rtype.kind) {
        case dif::TypeDesc::Kind::Integer:
            if (out)
                out->put_integer(value);
            return true;
        case dif::TypeDesc::Kind::String: {
            std::string_view s;
            if (!vm.load_string(value, s, f))
                return false;
            if (out)
                out->put_bytes(s.data(), static_cast<uint32_t>(s.size()));
            return true;
        }
        case dif::TypeDesc::Kind::ByRef: {
            std::string_view bytes;
            if (!vm.load_bytes(value, difo.rtype.size, bytes, f))
                return false;
            if (out)
                out->put_bytes(bytes.data(), static_cast<uint32_t>(bytes.size()));
            return true;
        }
        }
        return true;
    };
    int32_t index = 0;
    for (const compiler::Action &action : clause.actions) {
        index++;
        switch (action.kind) {
        case compiler::ActionKind::Expression:
        case compiler::ActionKind::Trace:
        case compiler::ActionKind::Print:
        case compiler::ActionKind::Exit: {
            uint64_t v = vm.run(*action.value, env, f);
            if (f.kind != dif::FaultKind::None ||
                (action.kind != compiler::ActionKind::Expression && !record_value(*action.value, v)))
                return faulted(index);
            if (action.kind == compiler::ActionKind::Exit) {
                Activity current = activity_.load(std::memory_order_relaxed);
                if (current == Activity::Active || current == Activity::Warmup) {
                    activity_.store(Activity::Draining, std::memory_order_release);
                    exit_requested_.store(true, std::memory_order_release);
                    notify();
                } else if (current != Activity::Cooldown) {
                    if (out)
                        out->abandon(); // a second exit() while draining records nothing
                    return true;
                }
            }
            break;
        }
        case compiler::ActionKind::Printf:
        case compiler::ActionKind::Printa:
        case compiler::ActionKind::System:
        case compiler::ActionKind::Freopen:
        case compiler::ActionKind::Library:
        case compiler::ActionKind::Tracemem:
        case compiler::ActionKind::Plugin:
            for (const dif::Difo &arg : action.args) {
                uint64_t v = vm.run(arg, env, f);
                if (f.kind != dif::FaultKind::None || !record_value(arg, v))
                    return faulted(index);
            }
            break;
        case compiler::ActionKind::Aggregate:
            if (!ecb.aggregations[index - 1].aggregation ||
                !aggregations_.apply(ecb.aggregations[index - 1], vm, env, f))
                return faulted(index);
            break;
        case compiler::ActionKind::Speculate:
        case compiler::ActionKind::Commit:
        case compiler::ActionKind::Discard: {
            uint64_t id = vm.run(*action.value, env, f);
            if (f.kind != dif::FaultKind::None)
                return faulted(index);
            bool illegal = false;
            if (action.kind == compiler::ActionKind::Speculate) {
                PrincipalBuffer *spec = speculations_.buffer(id, ctx.cpu, illegal);
                if (!illegal) {
                    // The record begun in the principal buffer moves to the speculation.
                    if (out)
                        out->abandon();
                    out = spec;
                    if (out)
                        out->begin(ecb.epid, ctx.timestamp, 0);
                }
            } else if (action.kind == compiler::ActionKind::Commit) {
                illegal = !speculations_.commit(id, buffers_, sequence_);
                for (const PrincipalBuffer &b : buffers_)
                    note_fill(b);
            } else {
                illegal = !speculations_.discard(id);
            }
            if (illegal)
                return action_faulted(index, dif::FaultKind::IllOp);
            break;
        }
        case compiler::ActionKind::Raise:
        case compiler::ActionKind::Chill: {
            uint64_t v = vm.run(*action.value, env, f);
            if (f.kind != dif::FaultKind::None)
                return faulted(index);
            dif::FaultKind k = action.kind == compiler::ActionKind::Raise ? raise_signal(ctx, v) : chill_.spin(v);
            if (k != dif::FaultKind::None)
                return action_faulted(index, k);
            break;
        }
        case compiler::ActionKind::Stop:
            stop_process(ctx);
            break;
        case compiler::ActionKind::Ftruncate:
        case compiler::ActionKind::Default:
            break;
        }
    }
    if (out) {
        if (!out->end() && out->full()) {
            buffer_filled_.store(true, std::memory_order_release);
            notify();
        }
        if (out == &buffers_[ctx.cpu]) // not a speculation's buffer: a switch does not empty those
            note_fill(*out);
    }
    return true;
}

void Engine::record_fault(const dtrace_event_ctx &ctx, const FaultRecord &fault) {
    if (in_error_probe_) {
        double_errors_++; // a fault in an ERROR clause is only counted
        return;
    }
    PrincipalBuffer &buffer = buffers_[ctx.cpu];
    buffer.begin(kErrorEpid, ctx.timestamp, sequence_++);
    buffer.put_integer(fault.epid);
    buffer.put_integer(static_cast<uint64_t>(fault.action));
    buffer.put_integer(fault.pc);
    buffer.put_integer(static_cast<uint64_t>(fault.kind));
    buffer.put_integer(fault.address);
    buffer.end();
    note_fill(buffer);

    Probe *error_probe = probes_.probe(error_probe_);
    if (!error_probe || error_probe->ecbs.empty())
        return;
    // ERROR's arguments: arg1 epid, arg2 action index, arg3 DIF offset, arg4 fault, arg5 address.
    const uint64_t args[] = {0,
                             fault.epid,
                             static_cast<uint64_t>(fault.action),
                             fault.pc == kNoDifOffset ? uint64_t(-1) : uint64_t(fault.pc) * sizeof(uint64_t),
                             static_cast<uint64_t>(fault.kind),
                             fault.address};
    dtrace_event_ctx error_ctx = ctx;
    error_ctx.args = args;
    error_ctx.nargs = sizeof args / sizeof args[0];
    in_error_probe_ = true;
    run_ecbs(*error_probe, error_ctx);
    in_error_probe_ = false;
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
    std::vector<CpuData> out;
    std::lock_guard guard(lock_);
    drain_generation_++;
    {
        std::lock_guard drained(drain_lock_);
        drain_generation_seen_ = drain_generation_;
    }
    drain_wanted_.store(false, std::memory_order_release);
    drained_.notify_all();
    drain_due_ = false; // every principal buffer is taken (a ring one is never waited for)
    // A ring buffer is read once, when tracing has stopped.
    if (buffer_config_.policy == BufferPolicy::Ring && activity_.load(std::memory_order_acquire) != Activity::Stopped)
        return out;
    for (uint32_t cpu = 0; cpu < buffers_.size(); cpu++) {
        CpuData data{cpu, {}, 0};
        buffers_[cpu].swap(data.records, data.drops);
        if (cpu == 0) {
            data.drops += external_drops_;
            external_drops_ = 0;
        }
        out.push_back(std::move(data));
    }
    return out;
}

std::vector<AggregationStore::Snapshot> Engine::snapshot_aggregations() {
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
    std::lock_guard guard(lock_);
    return aggregations_.take_drops();
}

uint64_t Engine::take_dynvar_drops() {
    std::lock_guard guard(lock_);
    return vm_ ? vm_->variables().take_drops() : 0;
}

dtrace_provider_id Engine::add_provider(host::LoadedPlugin &owner, const dtrace_provider_info &info,
                                        std::string &error) {
    return probes_.add_provider(&owner, info, error);
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
        std::string error;
        if (ProbeTable::matches(e.desc, probe) && !attach(e, probe, error)) {
            report_error(probe.provider->name, error);
            break;
        }
    }
    return id;
}

dtrace_probe_id Engine::lookup_probe(dtrace_provider_id provider, std::string_view module, std::string_view function,
                                     std::string_view name) const {
    return probes_.lookup(provider, module, function, name);
}

void Engine::report_drops(uint32_t cpu, uint64_t count, dtrace_drop_kind kind) {
    std::lock_guard guard(lock_);
    (kind == DTRACE_DROP_CORRUPT ? corrupt_drops_ : external_drops_) += count;
}

uint64_t Engine::take_double_errors() {
    std::lock_guard guard(lock_);
    return std::exchange(double_errors_, 0);
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
    return std::exchange(corrupt_drops_, 0);
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
