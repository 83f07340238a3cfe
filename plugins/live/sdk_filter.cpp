// sdk_filter.cpp: SDK filters to probe filters.
#include "sdk_filter.h"

#include <cstddef>
#include <optional>

namespace dtrace::live {

namespace {

std::optional<FilterField> field_of(uint32_t field) {
    switch (field) {
    case DTRACE_FILTER_PID:
        return FilterField::Pid;
    case DTRACE_FILTER_TID:
        return FilterField::Tid;
    case DTRACE_FILTER_UID:
        return FilterField::Uid;
    case DTRACE_FILTER_GID:
        return FilterField::Gid;
    case DTRACE_FILTER_EXECNAME:
        return FilterField::Execname;
    case DTRACE_FILTER_ARG:
        return FilterField::Arg;
    }
    return std::nullopt;
}

std::optional<FilterOp> op_of(uint32_t op) {
    switch (op) {
    case DTRACE_FILTER_EQ:
        return FilterOp::Eq;
    case DTRACE_FILTER_NE:
        return FilterOp::Ne;
    case DTRACE_FILTER_LT:
        return FilterOp::Lt;
    case DTRACE_FILTER_LE:
        return FilterOp::Le;
    case DTRACE_FILTER_GT:
        return FilterOp::Gt;
    case DTRACE_FILTER_GE:
        return FilterOp::Ge;
    }
    return std::nullopt;
}

constexpr size_t kTermV1Size = offsetof(dtrace_filter_term, string) + sizeof(dtrace_filter_term::string);
constexpr size_t kFilterV1Size = offsetof(dtrace_filter, terms) + sizeof(dtrace_filter::terms);

} // namespace

ProbeFilter probe_filter_of(uint32_t nfilters, const dtrace_filter *filters) {
    if (nfilters == 0 || filters == nullptr)
        return ProbeFilter{};
    ProbeFilter out{false, {}};
    for (uint32_t i = 0; i < nfilters; ++i) {
        const dtrace_filter &f = filters[i];
        FilterConjunction conjunction;
        if (f.struct_size >= kFilterV1Size && f.terms != nullptr) {
            for (uint32_t t = 0; t < f.nterms; ++t) {
                const dtrace_filter_term &term = f.terms[t];
                std::optional<FilterField> field =
                    term.struct_size >= kTermV1Size ? field_of(term.field) : std::nullopt;
                std::optional<FilterOp> op = field ? op_of(term.op) : std::nullopt;
                if (!op || (*field == FilterField::Execname && term.string == nullptr))
                    continue;
                conjunction.terms.push_back(FilterTerm{*field, term.arg_index, *op, term.value,
                                                       *field == FilterField::Execname ? term.string : ""});
            }
        }
        if (conjunction.terms.empty())
            return ProbeFilter{}; // a clause that wants every event
        out.any_of.push_back(std::move(conjunction));
    }
    return out;
}

} // namespace dtrace::live
