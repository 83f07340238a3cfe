// dnet_probes.h: the dnet provider, its probes, their enablings and firing.
//
// The families' rows (dnet_family.h) flattened in the order of the family
// table; a row's position is its cookie's offset from kDnetCookieBase. The
// probes are dnet:<family>:<family>:<name>: module and function both the
// family, so the Windows port's `dnet::gc:gc-start` and `dnet:gc::gc-start`
// both name gc-start. The D library (dnet_library.h) is registered before
// the programs compile: by a replay as a shared library named "dnet"
// (register_types, at init), by the live plugin as the provider's d_source
// (register_probes_with_library), which it registers only for a target, so
// that a session without one does not compile the library.
//
// The etw plugin's replay feeds it as a ReplayFamily (replay_family.h); the
// live dnet plugin (live/) feeds it the events of an EventPipe session and
// asks it which providers and keywords the enabled probes need. Enabling
// happens on the control thread, firing on the replay (or session) thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <dtrace/provider.h>

#include "clr_templates.h"
#include "dnet_args.h"
#include "dnet_family.h"
#include "replay_family.h"

namespace dtrace::dnet {

// Every family's rows, in table order.
std::span<const DnetProbe> dnet_probe_table();

// Cookies of the dnet probes start here (below the etw kernel probes').
inline constexpr uint64_t kDnetCookieBase = uint64_t{1} << 61;

// A runtime provider the enabled probes need, at the level and keywords
// their events have (what an EventPipe session asks the runtime for).
struct NeededProvider {
    ClrProvider provider;
    uint64_t keywords = 0;
    uint8_t level = 0;
};

class DnetProbes final : public etw::plugin::ReplayFamily {
  public:
    DnetProbes();

    bool register_types(dtrace_host *host, const dtrace_host_ops *ops) override;
    bool register_probes(dtrace_host *host, const dtrace_host_ops *ops) override;
    // The probes, with the D library as the provider's d_source.
    bool register_probes_with_library(dtrace_host *host, const dtrace_host_ops *ops);
    bool has_provider(std::string_view provider) const override;
    bool set_enabled(uint64_t cookie, bool enabled) override;
    // Inline: called for every replayed event, most often with nothing enabled.
    void dispatch(const etw::Event &event, dtrace_event_ctx &ctx, etw::plugin::EventMemory &memory) override {
        if (any_enabled()) {
            fire_matching(event, ctx, memory);
        }
    }

    bool any_enabled() const { return enabled_count_.load(std::memory_order_acquire) != 0; }
    std::vector<NeededProvider> needed_providers() const;

  private:
    void fire_matching(const etw::Event &event, dtrace_event_ctx &ctx, etw::plugin::EventMemory &memory);
    bool register_provider_and_probes(dtrace_host *host, const dtrace_host_ops *ops, const char *d_source);

    std::span<const DnetProbe> table_;
    ClrTemplates templates_;
    DnetArgs args_;
    dtrace_host *host_ = nullptr;
    const dtrace_host_ops *ops_ = nullptr;
    std::vector<dtrace_probe_id> ids_;
    std::unique_ptr<std::atomic<dtrace_probe_id>[]> enabled_;
    std::atomic<uint32_t> enabled_count_{0};
    std::vector<std::vector<uint16_t>> rows_by_id_[2]; // by provider, then event id
    // The last event's provider (events of one provider come in runs).
    etw::Guid last_guid_;
    std::optional<ClrProvider> last_provider_;
    bool has_last_ = false;
};

} // namespace dtrace::dnet
