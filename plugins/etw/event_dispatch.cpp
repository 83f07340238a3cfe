// event_dispatch.cpp: event context and firing of the matching probes.
#include "event_dispatch.h"

#include <algorithm>
#include <array>

#include "probe_usage.h"
#include "reader/kernel_groups.h"
#include "replay_counters.h"

namespace dtrace::etw::plugin {

namespace {

int64_t known_or_minus_one(uint32_t id) {
    return id == kUnknownId ? -1 : static_cast<int64_t>(id);
}

// The logfile header and its extension records are stamped with the
// session's start; trace time (tick-N) starts at the recorded data instead.
bool is_session_header(const Event &event, const TraceClock &clock) {
    return clock.is_session_start(event.timestamp) && event.provider == kEventTraceGuid;
}

} // namespace

EventDispatch::EventDispatch(dtrace_host *host, const dtrace_host_ops *ops, const ReplayInputs &inputs,
                             const TraceClock &clock)
    : host_(host), ops_(ops), catalog_(inputs.catalog), manifests_(inputs.manifests), registry_(inputs.registry),
      methods_(inputs.methods), families_(inputs.families), clock_(clock),
      kernel_(host, ops, inputs.kernel_probes, clock_, memory_, processes_, inputs.modules), stack_keys_(inputs.reopen),
      file_names_(inputs.reopen), disk_completions_(inputs.reopen), volumes_(inputs.reopen),
      attach_(inputs.walks_stacks, &stack_keys_) {
    kernel_.look_ahead_with({&file_names_, &disk_completions_, &volumes_});
    // What no event changes.
    ctx_.struct_size = sizeof ctx_;
    ctx_.uid = -1;
    ctx_.gid = -1;
    ctx_.read_memory = kernel_.reader(); // the kernel records, curpsinfo, then memory_
    ctx_.reader_state = kernel_.reader_state();
}

[[gnu::always_inline]] inline void EventDispatch::set_context(const Event &event, uint32_t pid, uint32_t tid,
                                                              const WalkedStack *stack) {
    dtrace_event_ctx &ctx = ctx_;
    ctx.cpu = event.cpu;
    ctx.timestamp = static_cast<uint64_t>(event.time_ns);
    ctx.walltimestamp = ctx.timestamp;
    ctx.pid = known_or_minus_one(pid);
    ctx.tid = known_or_minus_one(tid);
    const ProcessInfo *process = pid == kUnknownId ? nullptr : processes_.find(pid);
    ctx.execname = process != nullptr ? process->execname.c_str() : "";
    ctx.ppid = process != nullptr ? process->ppid : -1;
    ctx.payload = event.payload.data();
    ctx.payload_size = event.payload.size();
    ctx.flags = DTRACE_EVENT_REPLAYED | (is_session_header(event, clock_) ? DTRACE_EVENT_BEFORE_DATA : 0);
    ctx.kernel_stack = stack != nullptr ? stack->kernel().data() : nullptr;
    ctx.kernel_stack_depth = stack != nullptr ? static_cast<uint32_t>(stack->kernel().size()) : 0;
    ctx.user_stack = stack != nullptr ? stack->user().data() : nullptr;
    ctx.user_stack_depth = stack != nullptr ? static_cast<uint32_t>(stack->user().size()) : 0;
    if (!kernel_.pmc().counter_names().empty()) { // most traces name no counters: ctx keeps none then
        event_counters(event, kernel_.pmc(), counter_values_);
        ctx.ncounters = static_cast<uint32_t>(counter_values_.size());
        ctx.counters = counter_values_.empty() ? nullptr : counter_values_.data();
    }
}

void EventDispatch::fire(dtrace_probe_id probe, std::span<const uint64_t> args) {
    ctx_.args = args.data();
    ctx_.nargs = static_cast<uint32_t>(args.size());
    ops_->fire(host_, probe, &ctx_);
}

size_t EventDispatch::provider_index(const Guid &guid) {
    // Events of one provider tend to come in runs.
    if (!last_known_ || guid != last_guid_) {
        last_guid_ = guid;
        last_index_ = catalog_.index_of(guid);
        last_label_ = last_index_ == TraceCatalog::kNotFound ? nullptr : &catalog_.providers()[last_index_].label();
        last_known_ = true;
    }
    return last_index_;
}

// Call after provider_index(event.provider).
const std::string &EventDispatch::provider_label(const Event &event) {
    return last_label_ != nullptr ? *last_label_ : uncatalogued_label(event);
}

const std::string &EventDispatch::uncatalogued_label(const Event &event) {
    auto [it, added] = uncatalogued_labels_.try_emplace(event.provider);
    if (added) {
        it->second = TraceCatalog::label_of(event, manifests_);
    }
    last_label_ = &it->second;
    return *last_label_;
}

void EventDispatch::dispatch(const Event &event) {
    attach_.offer(event, [this](const Event &e, const WalkedStack *stack, bool stack_attached) {
        dispatch_now(e, stack, stack_attached);
    });
}

void EventDispatch::finish() {
    attach_.finish([this](const Event &e, const WalkedStack *stack, bool stack_attached) {
        dispatch_now(e, stack, stack_attached);
    });
}

void EventDispatch::dispatch_now(const Event &event, const WalkedStack *stack, bool stack_attached) {
    kernel_.set_position(event_serial_); // this event's index
    ++event_serial_;
    registry_.refresh(enabled_, generation_);
    if (usage_generation_ != generation_) {
        const std::optional<dtrace_probe_usage> usage =
            enabled_.diag_events != 0 ? plugin_common::probe_usage_of(host_, ops_, enabled_.diag_events) : std::nullopt;
        diag_events_reads_args_ = !usage || (usage->flags & DTRACE_USAGE_ARGS) != 0;
        usage_generation_ = generation_;
    }
    memory_.begin(event);
    kernel_.begin_event(event);
    methods_.note(event);
    // An event that carries its own stack (STACK_TRACE items; nettrace stacks).
    if (stack == nullptr && has_extended_stack(event)) {
        stack = carried_stacks_.of(event);
    }
    // A record without ids (PERFINFO) that has a stack is the stack's thread's.
    const bool ids_from_stack = stack != nullptr && event.pid == kUnknownId;
    set_context(event, ids_from_stack ? stack->pid : event.pid, ids_from_stack ? stack->tid : event.tid, stack);
    const size_t index = provider_index(event.provider);
    const uint64_t payload_size = event.payload.size();

    const bool lost = enabled_.diag_lost_event != 0 && event.provider == kLostEventGuid;
    const bool diag_events_args = enabled_.diag_events != 0 && diag_events_reads_args_;
    if (enabled_.diag_events != 0 && !diag_events_args) {
        fire(enabled_.diag_events, {}); // its clauses read no argument
    }
    if (diag_events_args || lost) {
        const std::array<uint64_t, 5> args = {memory_.label(provider_label(event)), event.id, event.opcode,
                                              payload_size, memory_.prefixed_payload()};
        if (diag_events_args) {
            fire(enabled_.diag_events, args);
        }
        if (lost) {
            fire(enabled_.diag_lost_event, args);
        }
    }
    if (enabled_.diag_events == 0) {
        fire(registry_.diag_events_probe(), {});
    }

    if (index != TraceCatalog::kNotFound) {
        const EnabledProbes::ProviderProbes &probes = enabled_.providers[index];
        for (const ProbeBinding &b : probes.etw) {
            if (etw_matches(event, b)) {
                fire_etw(event, b);
            }
        }
        if (!probes.events.empty() || !probes.keywords.empty()) {
            const std::array<uint64_t, 4> args = {event.id, event.opcode, memory_.prefixed_payload(), payload_size};
            for (dtrace_probe_id events_probe : probes.events) {
                fire(events_probe, args);
            }
            for (const ProbeBinding &b : probes.keywords) {
                if ((event.keyword & b.keyword_mask) != 0) {
                    fire(b.id, args);
                }
            }
        }
    }

    kernel_.dispatch(event, ctx_);
    if (families_ != nullptr) {
        for (const std::unique_ptr<ReplayFamily> &family : *families_) {
            family->dispatch(event, ctx_, memory_);
        }
    }
    if (enabled_.diag_missed_stack != 0 && !stack_attached && is_stack_walk(event)) {
        fire_missed_stack(event);
    }
}

const TraceLoggingSchema *EventDispatch::tracelogging_schema(const Event &event) {
    if (tracelogging_serial_ != event_serial_) { // once per event, whatever the number of probes
        std::optional<std::span<const uint8_t>> metadata = tracelogging_metadata(event);
        std::optional<TraceLoggingSchema> schema = metadata ? parse_tracelogging_schema(*metadata) : std::nullopt;
        has_tracelogging_schema_ = schema.has_value();
        if (schema) {
            tracelogging_schema_ = std::move(*schema);
        }
        tracelogging_serial_ = event_serial_;
    }
    return has_tracelogging_schema_ ? &tracelogging_schema_ : nullptr;
}

bool EventDispatch::etw_matches(const Event &event, const ProbeBinding &binding) {
    if (binding.event_id != kAnyEventId && binding.event_id != event.id) {
        return false;
    }
    if (!binding.named_events.empty() &&
        std::none_of(binding.named_events.begin(), binding.named_events.end(),
                     [&](const EventVersion &v) { return v.matches(event.id, event.version); })) {
        return false;
    }
    if (!binding.filter.passes(event.level, event.keyword)) {
        return false;
    }
    if (binding.tracelogging_name.empty()) {
        return true;
    }
    const TraceLoggingSchema *schema = tracelogging_schema(event);
    return schema != nullptr && schema->name == binding.tracelogging_name;
}

void EventDispatch::fire_etw(const Event &event, const ProbeBinding &binding) {
    std::vector<uint64_t> &args = etw_args_;
    args.assign(kEtwNativeArgs + binding.decoded_args, 0);
    args[0] = memory_.header_and_payload();
    args[1] = memory_.header_and_payload_size();
    if (binding.decoded_args != 0) {
        if (decoded_serial_ != event_serial_) { // once per event, whatever the number of probes
            // A TraceLogging event by its own schema; else by its manifest.
            const std::vector<ManifestField> &fields =
                binding.tracelogging_name.empty() ? manifests_.event(event.provider, event.id, event.version)->fields
                                                  : tracelogging_schema(event)->fields;
            decode_payload(event.payload, fields, event.pointer_size, decoded_);
            decoded_serial_ = event_serial_;
        }
        const uint64_t base = memory_.bytes(decoded_.bytes);
        for (size_t i = 0; i < binding.decoded_args && i < decoded_.fields.size(); ++i) {
            const DecodedField &f = decoded_.fields[i];
            args[kEtwNativeArgs + i] = f.by_address ? base + f.value : f.value;
        }
    }
    fire(binding.id, args);
}

void EventDispatch::fire_missed_stack(const Event &event) {
    if (!decode_stack_walk(event, stack_)) {
        return;
    }
    set_context(event, stack_.pid, stack_.tid, &stack_); // the event's last firing: its context may change
    const std::array<uint64_t, 1> args = {static_cast<uint64_t>(clock_.to_unix_ns(stack_.event_timestamp))};
    fire(enabled_.diag_missed_stack, args);
}

} // namespace dtrace::etw::plugin
