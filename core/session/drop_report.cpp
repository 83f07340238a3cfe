// drop_report.cpp: the drop messages and tags (see drop_report.h).
#include "session/drop_report.h"

namespace dtrace::session {

namespace {

struct DropText {
    const char *tag;
    const char *noun;   // pluralised with "s" for more than one
    const char *suffix; // after the noun
    bool per_cpu;
};

DropText drop_text(DropKind kind) {
    switch (kind) {
    case DropKind::Principal:
        return {"DTRACEDROP_PRINCIPAL", "drop", "", true};
    case DropKind::Aggregation:
        return {"DTRACEDROP_AGGREGATION", "aggregation drop", "", true};
    case DropKind::Dynamic:
        return {"DTRACEDROP_DYNAMIC", "dynamic variable drop", "", false};
    case DropKind::DynamicRinsing:
        return {"DTRACEDROP_DYNRINSE", "dynamic variable drop", " with non-empty rinsing list", false};
    case DropKind::DynamicDirty:
        return {"DTRACEDROP_DYNDIRTY", "dynamic variable drop", " with non-empty dirty list", false};
    case DropKind::Speculative:
        return {"DTRACEDROP_SPEC", "speculative drop", "", false};
    case DropKind::SpeculationBusy:
        return {"DTRACEDROP_SPECBUSY", "failed speculation", " (available buffer(s) still busy)", false};
    case DropKind::SpeculationUnavailable:
        return {"DTRACEDROP_SPECUNAVAIL", "failed speculation", " (no speculative buffer available)", false};
    case DropKind::StackStringOverflow:
        return {"DTRACEDROP_STKSTROVERFLOW", "jstack()/ustack() string table overflow", "", false};
    case DropKind::DoubleError:
        return {"DTRACEDROP_DBLERROR", "error", " in ERROR probe enabling", false};
    }
    return {"DTRACEDROP_UNKNOWN", "drop", "", false};
}

} // namespace

std::string drop_message(DropKind kind, uint64_t count, uint32_t cpu, bool droptags) {
    const DropText text = drop_text(kind);
    std::string message;
    if (droptags)
        message = std::string("[") + text.tag + "] ";
    message += std::to_string(count) + " " + text.noun + (count > 1 ? "s" : "") + text.suffix;
    if (text.per_cpu)
        message += " on CPU " + std::to_string(cpu);
    return message;
}

} // namespace dtrace::session
