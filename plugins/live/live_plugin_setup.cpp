// live_plugin_setup.cpp: loading a live plugin's BPF object, starting its ring.
#include "live_plugin_setup.h"

#include <algorithm>

#include <bpf/libbpf.h>

namespace dtrace::live {

Result<LoadedObject> load_live_object(dtrace_host *host, const dtrace_host_ops *ops, std::span<const uint8_t> image,
                                      const std::string &name, RecursionMisses *misses,
                                      std::function<bool(bpf_object *)> before_load) {
    Result<LiveOptions> options = read_live_options(host, ops);
    if (!options)
        return Error{options.error()};
    BpfLoadSettings settings;
    settings.ring_bytes = ring_size_for(options.value().ring_bytes);
    settings.settings.wakeup_watermark = settings.ring_bytes / kWakeupFraction;
    settings.before_load = std::move(before_load);
    settings.misses = misses;
    Result<std::unique_ptr<BpfProgramSet>> set = BpfProgramSet::load(image, name, settings);
    settings.before_load = nullptr;
    if (!set)
        return Error{set.error()};
    return LoadedObject{std::move(set.value()), options.value(), std::move(settings)};
}

std::function<bool(bpf_object *)> load_only(std::vector<std::string> keep) {
    return [keep = std::move(keep)](bpf_object *object) {
        bpf_program *program;
        bpf_object__for_each_program(program, object) {
            if (std::find(keep.begin(), keep.end(), bpf_program__name(program)) == keep.end() &&
                bpf_program__set_autoload(program, false) != 0)
                return false;
        }
        return true;
    };
}

Result<std::unique_ptr<EventRing>> start_event_ring(const BpfProgramSet &programs, dtrace_host *host,
                                                    const dtrace_host_ops *ops, RecursionMisses *misses,
                                                    std::function<void(std::span<const uint8_t>)> deliver) {
    RingCallbacks callbacks;
    callbacks.deliver = std::move(deliver);
    callbacks.report_drops = [host, ops](uint32_t cpu, uint64_t count) {
        ops->report_drops(host, cpu, count, DTRACE_DROP_PRINCIPAL);
    };
    callbacks.misses = misses;
    Result<std::unique_ptr<EventRing>> ring = EventRing::open(
        programs.map_fd("live_events"), programs.map_fd("live_drops"), kPollMilliseconds, std::move(callbacks));
    if (!ring)
        return Error{ring.error()};
    ring.value()->start();
    return std::move(ring.value());
}

} // namespace dtrace::live
