// dtrace_provider.cpp: the dtrace provider (BEGIN, END, ERROR).
//
//   dtrace:::BEGIN   fires once when tracing starts, before any other probe
//   dtrace:::END     fires once when tracing stops (exit(), end of input, ^C)
//   dtrace:::ERROR   fires when a clause faults: arg1 epid, arg2 action index,
//                    arg3 DIF offset, arg4 fault kind, arg5 faulting address
#include "providers/dtrace_provider.h"

#include <initializer_list>

namespace dtrace::providers {

namespace {

constexpr dtrace_attribute kStableCommon = {DTRACE_STABILITY_STABLE, DTRACE_STABILITY_STABLE, DTRACE_CLASS_COMMON};
constexpr dtrace_attribute kPrivateUnknown = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN};

int init(dtrace_host *host, const dtrace_host_ops *ops, void **state) {
    dtrace_provider_info info{};
    info.struct_size = sizeof info;
    info.name = "dtrace";
    info.attributes = {kStableCommon, kPrivateUnknown, kPrivateUnknown, kStableCommon, kStableCommon};
    dtrace_provider_id provider = ops->register_provider(host, &info);
    if (provider == 0)
        return -1;
    for (const char *name : {"BEGIN", "END", "ERROR"}) {
        dtrace_probe_desc desc{};
        desc.struct_size = sizeof desc;
        desc.module = "";
        desc.function = "";
        desc.name = name;
        if (ops->register_probe(host, provider, &desc) == 0)
            return -1;
    }
    *state = nullptr; // nothing to keep: the engine fires these probes itself
    return 0;
}

const dtrace_plugin_ops kOps = {
    sizeof(dtrace_plugin_ops),
    DTRACE_SDK_ABI_VERSION,
    "dtrace",
    "the dtrace provider: BEGIN, END, ERROR",
    0,
    init,
    nullptr, // provide: every probe is registered at init
    nullptr, // arg_info
    nullptr, // enable: the engine fires these probes itself
    nullptr,
    nullptr, // start
    nullptr, // stop
    nullptr, // destroy
};

} // namespace

const dtrace_plugin_ops *dtrace_provider_ops() {
    return &kOps;
}

} // namespace dtrace::providers
