// probe_registry.h: the plugin's providers and probes, and which are enabled.
//
// Every probe the plugin registers is bound (through its cookie) to what it
// fires on: all records (diag), one provider's events (by id, or all of them,
// through a level/keyword filter, or its TraceLogging events of one name), or
// one named provider's events (all, or those of a keyword its manifest
// names). etw probes of an event id that a manifest describes, and of a
// TraceLogging event name, are typed: args[0..] are the fields. The
// control thread registers probes and enables them; the replay thread fires
// them. They share nothing but a generation counter: the replay thread keeps
// its own copy of the enabled probes, grouped by provider, and copies it
// again (under the lock) only when the counter says enablings changed, so
// the per-event cost is one atomic load.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <dtrace/provider.h>

#include "manifest_set.h"
#include "probe_naming.h"
#include "trace_catalog.h"

namespace dtrace::etw::plugin {

enum class ProbeKind : uint8_t {
    DiagEvents,
    DiagLostEvent,
    DiagMissedStack,
    EtwEvent,
    ProviderEvents,
    ProviderKeyword
};

// EtwEvent bindings of generic_event match any event id.
inline constexpr int32_t kAnyEventId = -1;
// etw probes of a manifest or TraceLogging event: arg0 and arg1 as always,
// then the decoded fields as arg2.. (args[0..]), as many as the host's
// arg0..arg9 hold.
inline constexpr size_t kEtwNativeArgs = 2;
inline constexpr size_t kMaxDecodedArgs = 8;

struct ProbeBinding {
    ProbeKind kind = ProbeKind::DiagEvents;
    dtrace_probe_id id = 0;
    size_t provider = 0;            // catalog index (EtwEvent, ProviderKeyword)
    int32_t event_id = kAnyEventId; // EtwEvent
    std::string tracelogging_name;  // EtwEvent: a TraceLogging event's name instead of an id
    LevelKeywordFilter filter;      // EtwEvent
    size_t decoded_args = 0;        // EtwEvent: fields decoded into arg2...
    uint64_t keyword_mask = 0;      // ProviderKeyword
};

// The enabled probes, shaped for the replay thread's lookups. A probe id of 0
// means "not enabled".
struct EnabledProbes {
    struct ProviderProbes {
        std::vector<ProbeBinding> etw;
        dtrace_probe_id events = 0;         // <provider-name>:::events
        std::vector<ProbeBinding> keywords; // <provider-name>:::<keyword>
    };
    dtrace_probe_id diag_events = 0;
    dtrace_probe_id diag_lost_event = 0;
    dtrace_probe_id diag_missed_stack = 0;
    std::vector<ProviderProbes> providers; // by catalog index
};

class ProbeRegistry {
  public:
    ProbeRegistry(dtrace_host *host, const dtrace_host_ops *ops, const TraceCatalog &catalog,
                  const ManifestSet &manifests)
        : host_(host), ops_(ops), catalog_(catalog), manifests_(manifests),
          events_probe_of_(catalog.providers().size(), 0) {}

    // Registers the etw and diag providers, and the probes of every provider
    // in the catalog. False when the host refused (it has said why).
    bool register_all();
    // Registers the probes of the catalog's providers (after it was filled).
    bool register_catalog();
    // Registers the etw probes a spec asks for with its own level/keyword
    // filter (a function field like 0x04_0x0000000000000010); other specs
    // match the probes register_all() made. False when the host refused.
    bool provide(const dtrace_probe_spec *spec);
    // False for a cookie the plugin never handed out.
    bool set_enabled(uint64_t cookie, bool enabled);

    // diag:::events, enabled or not: firing it for every record lets the host
    // advance trace time even when no probe of the record is enabled.
    dtrace_probe_id diag_events_probe() const { return diag_events_probe_; }
    // Copies the enabled probes into out when they changed since generation
    // (asked for every event: the check is inline).
    void refresh(EnabledProbes &out, uint64_t &generation) const {
        if (generation_.load(std::memory_order_acquire) != generation) {
            copy_enabled(out, generation);
        }
    }

  private:
    void copy_enabled(EnabledProbes &out, uint64_t &generation) const;
    dtrace_provider_id add_provider(const std::string &name);
    dtrace_probe_id add_probe(dtrace_provider_id provider, const std::string &module, const std::string &function,
                              const std::string_view name, ProbeBinding binding, std::span<const dtrace_arg_desc> args);
    dtrace_probe_id add_probe(dtrace_provider_id provider, const std::string &module, const std::string &function,
                              const std::string_view name, ProbeBinding binding);
    dtrace_probe_id add_etw_probe(size_t provider, const std::string &function, const std::string &name,
                                  ProbeBinding binding);
    dtrace_probe_id add_typed_etw_probe(size_t provider, const std::string &function, const std::string &name,
                                        ProbeBinding binding, std::span<const ManifestField> fields);
    bool add_etw_probes(size_t provider, const std::string &function, const LevelKeywordFilter &filter,
                        const char *name_pattern);
    bool register_named_provider(size_t provider);

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    const TraceCatalog &catalog_;
    const ManifestSet &manifests_;
    dtrace_provider_id etw_provider_ = 0;
    dtrace_provider_id diag_provider_ = 0;
    dtrace_probe_id diag_events_probe_ = 0;
    std::unordered_map<std::string, dtrace_provider_id> named_providers_; // D name -> id
    std::vector<dtrace_probe_id> events_probe_of_;                        // by catalog index

    mutable std::mutex mutex_;                                // guards what follows
    std::deque<ProbeBinding> bindings_;                       // cookie = index
    std::unordered_map<dtrace_probe_id, uint64_t> cookie_of_; // probes already bound
    std::vector<bool> enabled_;                               // by cookie
    std::atomic<uint64_t> generation_{1};
};

} // namespace dtrace::etw::plugin
