// enable_checks.cpp: the checks made when tracing starts (see enable_checks.h).
#include "engine/enable_checks.h"

#include "compiler/action_traits.h"
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
