// drop_report.h: DTrace's messages for lost data.
//
// Per-CPU drops (principal buffer, aggregation buffer) are reported when the
// buffers are read; the others come with the session's status (every
// statusrate, and once more when tracing stops). Each is one line on
// stderr, "dtrace: 3 drops on CPU 0"; with -x droptags the line begins with
// the drop's tag, "[DTRACEDROP_PRINCIPAL] ".
#pragma once

#include <cstdint>
#include <string>

namespace dtrace::session {

enum class DropKind : uint8_t {
    Principal,
    Aggregation,
    Dynamic,
    DynamicRinsing,
    DynamicDirty,
    Speculative,
    SpeculationBusy,
    SpeculationUnavailable,
    StackStringOverflow,
    DoubleError,
};

// The message for `count` (> 0) drops; `cpu` is used by the per-CPU kinds.
std::string drop_message(DropKind kind, uint64_t count, uint32_t cpu, bool droptags);

} // namespace dtrace::session
