// enable_checks.cpp: the checks made when tracing starts (see enable_checks.h).
#include "engine/enable_checks.h"

#include "compiler/action_traits.h"
#include "dif/isa.h"
#include "engine/buffer_policy.h"

namespace dtrace::engine {

namespace {

size_t field_bound(const dif::Difo &difo, size_t strsize) {
    switch (difo.rtype.kind) {
    case dif::TypeDesc::Kind::Integer:
        return sizeof(uint64_t);
    case dif::TypeDesc::Kind::String:
        return align_up(sizeof(uint32_t) + strsize);
    case dif::TypeDesc::Kind::ByRef:
        return align_up(sizeof(uint32_t) + difo.rtype.size);
    }
    return sizeof(uint64_t);
}

bool acts_on_processes(compiler::ActionKind kind) {
    return kind == compiler::ActionKind::Raise || kind == compiler::ActionKind::Stop;
}

// The destructive subroutine `difo` calls (copyout, copyoutstr), or nullptr.
const char *destructive_call(const dif::Difo &difo) {
    for (uint64_t word : difo.code) {
        dif::Instr i = dif::decode(word);
        if (i.op != dif::Op::Call)
            continue;
        if (i.imm == uint32_t(dif::Subr::Copyout))
            return "copyout( )";
        if (i.imm == uint32_t(dif::Subr::Copyoutstr))
            return "copyoutstr( )";
    }
    return nullptr;
}

// Every DIF object of a clause: its predicate and its actions' expressions.
std::vector<const dif::Difo *> difos_of(const compiler::Clause &clause) {
    std::vector<const dif::Difo *> difos;
    if (clause.predicate)
        difos.push_back(&*clause.predicate);
    for (const compiler::Action &action : clause.actions) {
        if (action.value)
            difos.push_back(&*action.value);
        for (const dif::Difo &d : action.args)
            difos.push_back(&d);
        for (const dif::Difo &d : action.agg_args)
            difos.push_back(&d);
    }
    return difos;
}

const char *destructive_call(const compiler::Clause &clause) {
    for (const dif::Difo *d : difos_of(clause))
        if (const char *name = destructive_call(*d))
            return name;
    return nullptr;
}

// The bytes a variable of type `t` holds in place: a string strsize, a
// struct or array its size; an integer none (it is not by reference).
size_t by_reference_size(const dif::TypeDesc &t, size_t strsize) {
    switch (t.kind) {
    case dif::TypeDesc::Kind::Integer:
        return 0;
    case dif::TypeDesc::Kind::String:
        return strsize;
    case dif::TypeDesc::Kind::ByRef:
        return t.size;
    }
    return 0;
}

} // namespace

size_t record_bound(const Ecb &ecb, size_t strsize) {
    if (!ecb.records)
        return 0;
    size_t bound = sizeof(RecordHeader);
    for (const compiler::Action &action : ecb.clause->actions) {
        if (!compiler::writes_record(action.kind))
            continue;
        if (action.value && action.kind != compiler::ActionKind::Speculate) // the id is not recorded
            bound += field_bound(*action.value, strsize);
        for (const dif::Difo &arg : action.args)
            bound += field_bound(arg, strsize);
    }
    return bound;
}

size_t end_reserve(const std::vector<const Ecb *> &end_ecbs, size_t strsize) {
    size_t total = 0;
    for (const Ecb *ecb : end_ecbs)
        total += record_bound(*ecb, strsize);
    return total;
}

bool has_oversized_static(const compiler::Program &program, size_t strsize) {
    for (const compiler::Clause &clause : program.clauses) {
        for (const dif::Difo *difo : difos_of(clause)) {
            for (const dif::Variable &v : difo->vars) {
                const bool static_scope = v.scope == dif::Scope::Global || v.scope == dif::Scope::ClauseLocal;
                if (static_scope && by_reference_size(v.type, strsize) > kLargestStaticVariable)
                    return true;
            }
        }
    }
    return false;
}

ResourceNeeds resource_needs(const Engine &engine, const Options &options) {
    ResourceNeeds needs;
    needs.cpus = online_cpus();
    const std::string *policy = options.text("bufpolicy");
    const bool fill = policy && parse_buffer_policy(*policy) == BufferPolicy::Fill;
    std::vector<const Ecb *> end_ecbs;
    for (uint32_t epid = kErrorEpid + 1; const Ecb *ecb = engine.ecb(epid); epid++) {
        for (const compiler::Action &action : ecb->clause->actions) {
            needs.aggregates = needs.aggregates || action.kind == compiler::ActionKind::Aggregate;
            needs.speculates = needs.speculates || action.kind == compiler::ActionKind::Speculate;
        }
        if (fill && ecb->probe->provider->name == "dtrace" && ecb->probe->name == "END")
            end_ecbs.push_back(ecb);
    }
    needs.end_reserve = end_reserve(end_ecbs, static_cast<size_t>(options.number("strsize")));
    return needs;
}

std::optional<std::string> check_enablings(const std::vector<const Ecb *> &ecbs,
                                           const std::vector<const Ecb *> &end_ecbs, const Options &options) {
    const bool destructive_allowed = options.is_set("destructive");
    const bool replaying = options.is_set("replay");
    const size_t strsize = static_cast<size_t>(options.number("strsize"));
    size_t largest = 0;
    bool speculates = false;
    for (const Ecb *ecb : ecbs) {
        for (const compiler::Action &action : ecb->clause->actions) {
            if (compiler::is_destructive(action.kind) && !destructive_allowed)
                return "Destructive actions not allowed";
            if (acts_on_processes(action.kind) && replaying)
                return (action.kind == compiler::ActionKind::Raise ? "raise( )" : "stop( )") +
                       std::string(" needs a live process: the events are replayed from a trace file");
            speculates = speculates || action.kind == compiler::ActionKind::Speculate;
        }
        // No provider gives a way to write to a traced process.
        if (const char *call = destructive_call(*ecb->clause)) {
            if (!destructive_allowed)
                return "Destructive actions not allowed";
            return call + std::string(" is not supported: no provider can write to a traced process");
        }
        largest = std::max(largest, record_bound(*ecb, strsize));
    }
    const size_t bufsize = static_cast<size_t>(options.number("bufsize"));
    const std::string *policy = options.text("bufpolicy");
    if (policy && parse_buffer_policy(*policy) == BufferPolicy::Fill && end_reserve(end_ecbs, strsize) > bufsize)
        return "END enablings exceed size of principal buffer";
    if (largest > bufsize || (speculates && largest > static_cast<size_t>(options.number("specsize"))))
        return "Enabling exceeds size of buffer";
    return std::nullopt;
}

} // namespace dtrace::engine
