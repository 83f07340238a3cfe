// probe_context.h: what a clause sees of the firing it runs in.
//
// The VM asks its Environment for builtin variables (arg0, pid, probefunc,
// timestamp ...); this class answers from the explicit event context the
// plugin passed to fire() and from the probe itself. Strings it hands out
// (probe names, execname) are declared readable to the VM's checked
// accessor for the duration of the clause.
#pragma once

#include "dif/vm.h"
#include "engine/counter_reader.h"
#include "engine/probe_table.h"
#include "engine/speculation.h"

#include <dtrace/provider.h>

#include <optional>
#include <string>

namespace dtrace::engine {

class ProbeContext final : public dif::Environment {
  public:
    ProbeContext(dif::Vm &vm, const Probe &probe, const dtrace_event_ctx &ctx, uint32_t epid,
                 Speculations &speculations, const CounterReader *counters = nullptr)
        : vm_(vm), probe_(probe), ctx_(ctx), epid_(epid), speculations_(speculations), counters_(counters) {}

    uint64_t builtin(dif::VarId id) override;
    uint64_t builtin_array(dif::VarId id, uint64_t index, dif::Fault &fault) override;
    int64_t read_target(uint64_t address, void *buffer, size_t length) override;
    uint64_t speculation() override { return speculations_.acquire(); }
    std::span<const uint64_t> stack_pcs(bool user) override;

    // Each clause of the firing, after Vm::begin_clause().
    void begin_clause(uint32_t epid) {
        epid_ = epid;
        declare_memory();
    }
    // A clause that runs no DIFO (Ecb::direct_aggregations) reads only
    // integer builtins: no memory to declare, no clause state to reset.
    void begin_direct_clause(uint32_t epid) { epid_ = epid; }

  private:
    // A replay has no kernel but the trace: the plugin's memory (the
    // records and strings arguments point to) is loaded directly, as
    // DTrace loads kernel pointers, not only through copyin(). A live
    // kernel probe's reader reads the kernel's memory (DTRACE_EVENT_KERNEL_MEMORY).
    void declare_memory() {
        const bool replayed = (ctx_.flags & DTRACE_EVENT_REPLAYED) && !(ctx_.flags & DTRACE_EVENT_LIVE_TARGET);
        if ((replayed || (ctx_.flags & DTRACE_EVENT_KERNEL_MEMORY)) && ctx_.read_memory)
            vm_.read_through(this);
    }
    // Whether the plugin's context reaches an appended field.
    template <typename T> bool has(T dtrace_event_ctx::*field) const {
        const auto offset = reinterpret_cast<const char *>(&(ctx_.*field)) - reinterpret_cast<const char *>(&ctx_);
        return ctx_.struct_size >= static_cast<size_t>(offset) + sizeof(T);
    }
    uint64_t arg(uint64_t index) const { return index < ctx_.nargs && ctx_.args ? ctx_.args[index] : 0; }
    uint64_t string_address(const char *s);
    uint64_t string_address(const std::string &s);
    // cwd and root: where the firing process's /proc link points ("" when
    // it cannot be read, or the event was replayed from a trace file).
    uint64_t process_link(const char *link, std::optional<std::string> &storage);

    dif::Vm &vm_;
    const Probe &probe_;
    const dtrace_event_ctx &ctx_;
    uint32_t epid_;
    Speculations &speculations_;
    const CounterReader *counters_; // pmc["name"]; null: such reads fault
    // Kept readable for the firing; made only when a clause reads them.
    std::optional<std::string> cwd_, root_;
};

} // namespace dtrace::engine
