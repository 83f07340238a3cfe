// action_runner.cpp: the actions of a clause whose predicate passed, and the
// fault record of one that faulted.
//
// One switch over ActionKind: each action records its values into the
// clause's buffer (the CPU's principal buffer, or a speculation's after
// speculate()), updates an aggregation, or acts in probe context (exit,
// speculations, raise, chill, stop). The engine (engine.cpp) decides which
// clauses run and holds the state these act on, under its lock.
#include "engine/engine.h"

#include "engine/probe_context.h"

namespace dtrace::engine {

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
        consumer_sync_due_ |= ecb.consumer_reads_aggregations;
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
        drops_.double_errors++; // a fault in an ERROR clause is only counted
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

} // namespace dtrace::engine
