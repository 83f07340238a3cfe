// probe_usage.cpp: scanning enabled clauses' DIF for what a firing reads.
#include "engine/probe_usage.h"

#include "compiler/program.h"
#include "dif/isa.h"
#include "engine/engine.h"
#include "engine/memory_fetch_plan.h"

#include <algorithm>
#include <array>
#include <optional>

namespace dtrace::engine {

namespace {

constexpr size_t kRegisters = 256;

bool is_arg(dif::VarId id) {
    return id >= dif::VarId::Arg0 && id <= dif::VarId::Arg9;
}

void scan(const dif::Difo &difo, const Probe &probe, dtrace_probe_usage &usage) {
    using dif::Op;
    using dif::VarId;
    std::array<std::optional<uint64_t>, kRegisters> constant; // setx
    std::array<std::optional<uint32_t>, kRegisters> from_arg; // the native argument a register holds
    std::vector<std::optional<uint32_t>> tuple;               // the args of the pushed values
    for (uint64_t word : difo.code) {
        const dif::Instr in = dif::decode(word);
        const auto var = static_cast<VarId>(in.imm);
        switch (in.op) {
        case Op::Setx:
            constant[in.rd] = in.imm < difo.inttab.size() ? std::optional(difo.inttab[in.imm]) : std::nullopt;
            from_arg[in.rd].reset();
            continue;
        case Op::Ldgv:
            constant[in.rd].reset();
            from_arg[in.rd].reset();
            if (is_arg(var)) {
                from_arg[in.rd] = static_cast<uint32_t>(var) - static_cast<uint32_t>(VarId::Arg0);
                usage.flags |= DTRACE_USAGE_ARGS;
            } else if (var == VarId::Timestamp || var == VarId::Vtimestamp || var == VarId::Walltimestamp)
                usage.flags |= DTRACE_USAGE_TIMESTAMP;
            else if (var == VarId::Ustackdepth || var == VarId::Ucaller)
                usage.flags |= DTRACE_USAGE_USER_STACK;
            else if (var == VarId::Stackdepth || var == VarId::Caller)
                usage.flags |= DTRACE_USAGE_KERNEL_STACK;
            continue;
        case Op::Ldga: {
            std::optional<uint64_t> index = constant[in.r1];
            constant[in.rd].reset();
            from_arg[in.rd].reset();
            if (var == VarId::Uregs)
                usage.flags |= DTRACE_USAGE_USER_REGS;
            if (var == VarId::Args)
                usage.flags |= DTRACE_USAGE_ARGS;
            if (var == VarId::Args && index)
                from_arg[in.rd] =
                    *index < probe.args.size() ? probe.args[*index].native_index : static_cast<uint32_t>(*index);
            continue;
        }
        case Op::Flushts:
            tuple.clear();
            continue;
        case Op::Pushtv:
            tuple.push_back(from_arg[in.r1]);
            continue;
        case Op::Call: {
            const auto subr = static_cast<dif::Subr>(in.imm);
            if (subr == dif::Subr::Ustack)
                usage.flags |= DTRACE_USAGE_USER_STACK;
            else if (subr == dif::Subr::Stack)
                usage.flags |= DTRACE_USAGE_KERNEL_STACK;
            else if (subr == dif::Subr::Copyinstr && !tuple.empty() && tuple.front() && *tuple.front() < 32)
                usage.string_args |= 1u << *tuple.front();
            tuple.clear();
            constant[in.rd].reset();
            from_arg[in.rd].reset();
            continue;
        }
        default:
            // Any other instruction writes rd (or nothing): forget what it held.
            constant[in.rd].reset();
            from_arg[in.rd].reset();
        }
    }
}

} // namespace

dtrace_probe_usage usage_of(const Probe &probe, uint32_t string_limit) {
    dtrace_probe_usage usage{};
    usage.struct_size = sizeof usage;
    std::vector<uint32_t> native_index;
    for (const host::ArgType &arg : probe.args)
        native_index.push_back(arg.native_index);
    MemoryFetchPlanner planner(std::move(native_index), string_limit);
    const auto scan_all = [&](const dif::Difo &difo) {
        scan(difo, probe, usage);
        planner.scan(difo);
    };
    for (const Ecb *ecb : probe.ecbs) {
        const compiler::Clause &clause = *ecb->clause;
        planner.begin_clause();
        if (clause.predicate)
            scan_all(*clause.predicate);
        for (const compiler::Action &action : clause.actions) {
            if (action.value)
                scan_all(*action.value);
            for (const dif::Difo &difo : action.args)
                scan_all(difo);
            for (const dif::Difo &difo : action.agg_args)
                scan_all(difo);
        }
    }
    usage.nfetches = static_cast<uint32_t>(planner.fetches().size());
    std::copy(planner.fetches().begin(), planner.fetches().end(), usage.fetches);
    return usage;
}

} // namespace dtrace::engine
