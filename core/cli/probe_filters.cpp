// probe_filters.cpp: from the clauses enabled on a probe to the SDK's dtrace_filter list.
#include "cli/probe_filters.h"

#include <algorithm>

namespace dtrace::cli {

namespace {

using compiler::FilterTerm;
using compiler::PredicateFilter;

static_assert(uint32_t(FilterTerm::Field::Pid) == DTRACE_FILTER_PID &&
              uint32_t(FilterTerm::Field::Arg) == DTRACE_FILTER_ARG &&
              uint32_t(FilterTerm::Field::Execname) == DTRACE_FILTER_EXECNAME);
static_assert(uint32_t(FilterTerm::Cmp::Eq) == DTRACE_FILTER_EQ && uint32_t(FilterTerm::Cmp::Ge) == DTRACE_FILTER_GE);

// The filters of a probe's clauses, without repeats; nothing when some clause
// lets every event through.
std::vector<const PredicateFilter *> alternatives_of(const engine::Probe &probe) {
    std::vector<const PredicateFilter *> alternatives;
    for (const engine::Ecb *ecb : probe.ecbs) {
        const PredicateFilter &filter = ecb->clause->filter;
        if (filter.empty())
            return {};
        auto same = [&](const PredicateFilter *f) { return *f == filter; };
        if (std::none_of(alternatives.begin(), alternatives.end(), same))
            alternatives.push_back(&filter);
    }
    return alternatives;
}

// The SDK's view of the alternatives; it points into them and into itself.
struct SdkFilters {
    std::vector<std::vector<dtrace_filter_term>> terms;
    std::vector<dtrace_filter> filters;

    explicit SdkFilters(const std::vector<const PredicateFilter *> &alternatives) {
        for (const PredicateFilter *alternative : alternatives) {
            std::vector<dtrace_filter_term> &out = terms.emplace_back();
            for (const FilterTerm &t : *alternative)
                out.push_back({sizeof(dtrace_filter_term), uint32_t(t.field), t.arg_index, uint32_t(t.op), t.value,
                               t.field == FilterTerm::Field::Execname ? t.string.c_str() : nullptr});
        }
        for (const auto &conjunction : terms)
            filters.push_back({sizeof(dtrace_filter), uint32_t(conjunction.size()), conjunction.data()});
    }
};

} // namespace

Status send_probe_filters(const engine::Probe &probe, host::PluginHost &host) {
    SdkFilters sdk(alternatives_of(probe));
    Status status =
        host.set_filters(probe.provider->id, probe.id, probe.cookie, uint32_t(sdk.filters.size()), sdk.filters.data());
    if (!status)
        return Failure{"failed to enable " + probe.provider->name + ":" + probe.module + ":" + probe.function + ":" +
                       probe.name + ": " + status.reason()};
    return {};
}

Status send_probe_filters(engine::Engine &engine, host::PluginHost &host) {
    engine::ProbeTable &table = engine.probes();
    for (size_t id = 1; id <= table.probe_count(); ++id) {
        const engine::Probe *probe = table.probe(static_cast<dtrace_probe_id>(id));
        if (probe == nullptr || probe->ecbs.empty())
            continue;
        if (Status sent = send_probe_filters(*probe, host); !sent)
            return sent;
    }
    return {};
}

} // namespace dtrace::cli
