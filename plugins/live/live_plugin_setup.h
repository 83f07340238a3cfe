// live_plugin_setup.h: the two steps every BPF-ring live plugin takes the
// same way: loading its BPF object with the ring the options ask for, and
// starting the thread that drains the ring into fire() (drops reported to
// the host as dtrace's own).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <dtrace/provider.h>

#include "bpf_program_set.h"
#include "event_ring.h"
#include "live_options.h"
#include "result.h"

namespace dtrace::live {

struct LoadedObject {
    std::unique_ptr<BpfProgramSet> programs;
    LiveOptions options;      // as read when it was loaded
    BpfLoadSettings settings; // as loaded: for objects that share its maps
};

// Reads the live options and loads `image` (named `name` in errors) with a
// ring of -x livebufsize and its wake-up watermark, its programs' skipped
// firings counted by `misses`; `before_load` as BpfLoadSettings's (say,
// leave programs out).
Result<LoadedObject> load_live_object(dtrace_host *host, const dtrace_host_ops *ops, std::span<const uint8_t> image,
                                      const std::string &name, RecursionMisses *misses,
                                      std::function<bool(bpf_object *)> before_load = nullptr);

// A before_load that leaves out every program of the object but `keep`
// (each program is verified when loaded: a plugin loads what it uses).
std::function<bool(bpf_object *)> load_only(std::vector<std::string> keep);

// Opens `programs`' ring and starts draining it: each record to deliver, in
// timestamp order; lost records, and the firings `misses` counts, reported
// to the host as principal drops.
Result<std::unique_ptr<EventRing>> start_event_ring(const BpfProgramSet &programs, dtrace_host *host,
                                                    const dtrace_host_ops *ops, RecursionMisses *misses,
                                                    std::function<void(std::span<const uint8_t>)> deliver);

} // namespace dtrace::live
