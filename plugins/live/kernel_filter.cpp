// kernel_filter.cpp: a probe filter in the BPF program's form.
#include "kernel_filter.h"

#include <cstring>
#include <optional>

namespace dtrace::live {

namespace {

uint8_t field_code(FilterField f) {
    switch (f) {
    case FilterField::Pid:
        return LIVE_FIELD_PID;
    case FilterField::Tid:
        return LIVE_FIELD_TID;
    case FilterField::Uid:
        return LIVE_FIELD_UID;
    case FilterField::Gid:
        return LIVE_FIELD_GID;
    case FilterField::Execname:
        return LIVE_FIELD_EXECNAME;
    case FilterField::Arg:
        return LIVE_FIELD_ARG;
    }
    return LIVE_FIELD_PID;
}

uint8_t op_code(FilterOp op) {
    switch (op) {
    case FilterOp::Eq:
        return LIVE_OP_EQ;
    case FilterOp::Ne:
        return LIVE_OP_NE;
    case FilterOp::Lt:
        return LIVE_OP_LT;
    case FilterOp::Le:
        return LIVE_OP_LE;
    case FilterOp::Gt:
        return LIVE_OP_GT;
    case FilterOp::Ge:
        return LIVE_OP_GE;
    }
    return LIVE_OP_EQ;
}

// The program's form of a term, or nothing when it cannot test it (the
// term is then left out of its conjunction, which only widens it).
std::optional<live_filter_term> encode_term(const FilterTerm &t, uint32_t nargs) {
    live_filter_term out{};
    out.field = field_code(t.field);
    out.op = op_code(t.op);
    out.value = t.value;
    if (t.field == FilterField::Execname) {
        // comm holds at most LIVE_COMM_LEN - 1 characters and is compared whole.
        if ((t.op != FilterOp::Eq && t.op != FilterOp::Ne) || t.string.size() >= LIVE_COMM_LEN ||
            t.string.find('\0') != std::string::npos)
            return std::nullopt;
        std::memcpy(out.string, t.string.data(), t.string.size());
    }
    if (t.field == FilterField::Arg) {
        if (t.arg_index >= nargs || t.arg_index >= LIVE_MAX_ARGS)
            return std::nullopt;
        out.arg = static_cast<uint8_t>(t.arg_index);
    }
    return out;
}

} // namespace

live_filter encode_filter(const ProbeFilter &filter, uint32_t nargs) {
    live_filter out{};
    if (filter.everything || filter.any_of.size() > LIVE_MAX_CLAUSES)
        return out; // nclauses 0: everything passes
    if (filter.any_of.empty()) {
        // Nothing wanted: one conjunction that no event satisfies.
        out.nclauses = 1;
        out.clauses[0].nterms = 2;
        out.clauses[0].terms[0] = live_filter_term{LIVE_FIELD_PID, LIVE_OP_EQ, 0, {}, 0, {}};
        out.clauses[0].terms[1] = live_filter_term{LIVE_FIELD_PID, LIVE_OP_NE, 0, {}, 0, {}};
        return out;
    }
    for (const FilterConjunction &conjunction : filter.any_of) {
        live_filter_conjunction &c = out.clauses[out.nclauses++];
        for (const FilterTerm &term : conjunction.terms) {
            if (c.nterms == LIVE_MAX_TERMS)
                break;
            if (std::optional<live_filter_term> t = encode_term(term, nargs))
                c.terms[c.nterms++] = *t;
        }
        if (c.nterms == 0)
            return live_filter{}; // a clause that wants everything
    }
    return out;
}

} // namespace dtrace::live
