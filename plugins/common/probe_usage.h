// probe_usage.h: what a probe's enabled clauses read, as the host says.
//
// The host's probe_usage op (appended in ABI 1) tells a plugin whether a
// probe's clauses read stacks, registers, arguments, time stamps or strings
// its arguments point to, so that the plugin captures only that at the
// event. A host without the op, or one that cannot say, gives nullopt: the
// plugin then captures what it would without knowing.
#ifndef DTRACE_PLUGINS_COMMON_PROBE_USAGE_H
#define DTRACE_PLUGINS_COMMON_PROBE_USAGE_H

#include <cstddef>
#include <optional>

#include <dtrace/provider.h>

namespace dtrace::plugin_common {

inline std::optional<dtrace_probe_usage> probe_usage_of(dtrace_host *host, const dtrace_host_ops *ops,
                                                        dtrace_probe_id probe) {
    dtrace_probe_usage usage{};
    usage.struct_size = sizeof usage;
    if (ops->struct_size <= offsetof(dtrace_host_ops, probe_usage) || ops->probe_usage == nullptr ||
        ops->probe_usage(host, probe, &usage) != 0)
        return std::nullopt;
    return usage;
}

} // namespace dtrace::plugin_common

#endif
