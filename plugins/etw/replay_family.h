// replay_family.h: probe families that live outside the etw plugin and fire
// on its replayed events (the dnet probes, plugins/dnet).
//
// The ETL and .nettrace readers are the etw plugin's, so a family of probes
// over another component's events (the .NET runtime's) is a library that
// the etw plugin's replay registers and feeds: the plugin module lists them
// (replay_families.cpp), init() registers their D libraries and provide()
// their probes when a description may name them, enable and disable
// reach them by cookie, and the replay hands each event to every family
// after its own probes, with the event's context and memory.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include <dtrace/provider.h>

#include "event_memory.h"
#include "reader/event.h"

namespace dtrace::etw::plugin {

class ReplayFamily {
  public:
    virtual ~ReplayFamily() = default;

    // Registers the family's D library (its types and translators), at
    // init: programs are compiled after it. False when the host refused (it
    // has said why).
    virtual bool register_types(dtrace_host *host, const dtrace_host_ops *ops) = 0;
    // Registers the family's providers and probes (at the first provide()
    // that may name them, after the file's own). False when the host refused.
    virtual bool register_probes(dtrace_host *host, const dtrace_host_ops *ops) = 0;
    // Whether `provider` is one of the family's: a script of such probes
    // alone needs no init pass over the file (their probes do not depend on
    // what it holds).
    virtual bool has_provider(std::string_view provider) const = 0;
    // False for a cookie that is not one of the family's probes.
    virtual bool set_enabled(uint64_t cookie, bool enabled) = 0;
    // Fires the family's enabled probes that `event` matches; ctx holds the
    // event's context (args are the family's to set), memory the regions D
    // may read for it.
    virtual void dispatch(const Event &event, dtrace_event_ctx &ctx, EventMemory &memory) = 0;
};

using ReplayFamilies = std::vector<std::unique_ptr<ReplayFamily>>;

// The families of the plugin module (replay_families.cpp).
ReplayFamilies make_replay_families(dtrace_host *host, const dtrace_host_ops *ops);

} // namespace dtrace::etw::plugin
