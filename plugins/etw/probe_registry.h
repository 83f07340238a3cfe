// probe_registry.h: the plugin's providers and probes, and which are enabled.
//
// Every probe the plugin registers is bound (through its cookie) to what it
// fires on: all records (diag), one provider's events (by id, or all of them,
// through a level/keyword filter, or its TraceLogging events of one name), or
// one named provider's events (all, or those of a keyword its manifest
// names). etw probes of an event id that a manifest describes, of a
// manifest event's name, and of a TraceLogging event name, are typed:
// args[0..] are the fields, every one of them, named in `dtrace -lv`.
// Names are matched as Windows matches them, without regard to case: a
// probe description that spells a provider's name (or an etw module's
// GUID, or the provider's name in place of it) in another case gets probes
// of that spelling when it is matched (provide()). The
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
// then the decoded fields as arg2.. (args[0..]): every field, up to the
// last native index an argument description holds (a uint8_t).
inline constexpr size_t kEtwNativeArgs = 2;
inline constexpr size_t kMaxDecodedArgs = UINT8_MAX + 1 - kEtwNativeArgs;

// One version of a manifest event; the latest version the manifest
// describes also stands for the later ones it does not (they decode with
// its template: later versions append fields).
struct EventVersion {
    uint16_t id = 0;
    uint8_t version = 0;
    bool and_later = false;

    bool matches(uint16_t event_id, uint8_t event_version) const {
        return event_id == id && (event_version == version || (and_later && event_version > version));
    }
};

struct ProbeBinding {
    ProbeKind kind = ProbeKind::DiagEvents;
    dtrace_probe_id id = 0;
    size_t provider = 0;                    // catalog index (EtwEvent, ProviderKeyword)
    int32_t event_id = kAnyEventId;         // EtwEvent
    std::string tracelogging_name;          // EtwEvent: a TraceLogging event's name instead of an id
    std::vector<EventVersion> named_events; // EtwEvent: the manifest events of a name instead of an id
    LevelKeywordFilter filter;              // EtwEvent
    size_t decoded_args = 0;                // EtwEvent: fields decoded into arg2...
    uint64_t keyword_mask = 0;              // ProviderKeyword
};

// The enabled probes, shaped for the replay thread's lookups. A probe id of 0
// means "not enabled".
struct EnabledProbes {
    struct ProviderProbes {
        std::vector<ProbeBinding> etw;
        std::vector<dtrace_probe_id> events; // <provider-name>:::events, in each spelling a script used
        std::vector<ProbeBinding> keywords;  // <provider-name>:::<keyword>
    };
    dtrace_probe_id diag_events = 0;
    dtrace_probe_id diag_lost_event = 0;
    dtrace_probe_id diag_missed_stack = 0;
    std::vector<ProviderProbes> providers; // by catalog index
    // Whether any of providers is enabled: else an event's provider is
    // looked up only for diag:::events' and diag:::lostevent's label.
    bool any_provider = false;
};

class ProbeRegistry {
  public:
    ProbeRegistry(dtrace_host *host, const dtrace_host_ops *ops, const TraceCatalog &catalog,
                  const ManifestSet &manifests)
        : host_(host), ops_(ops), catalog_(catalog), manifests_(manifests) {}

    // Registers the etw and diag providers, and the probes of every provider
    // in the catalog. False when the host refused (it has said why).
    bool register_all();
    // Registers the probes of the catalog's providers (after it was filled).
    bool register_catalog();
    // Registers the probes a spec asks for that register_all() did not
    // make: etw probes with its own level/keyword filter (a function field
    // like 0x04_0x0000000000000010), etw probes whose module spells the
    // provider's name or GUID (any case), and a named provider's probes
    // under another case of its name. False when the host refused.
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
    // The probes of one etw provider under one module (its GUID, or its
    // name as a script spelled it) and one function (the filter's text).
    struct EtwModule {
        size_t provider = 0;
        std::string module;
        std::string function;
        LevelKeywordFilter filter;
    };
    dtrace_probe_id add_etw_probe(const EtwModule &where, const std::string &name, ProbeBinding binding);
    dtrace_probe_id add_typed_etw_probe(const EtwModule &where, const std::string &name, ProbeBinding binding,
                                        std::span<const ManifestField> fields);
    bool add_etw_probes(const EtwModule &where, const char *name_pattern);
    bool add_manifest_name_probes(const EtwModule &where, const char *name_pattern);
    bool provide_etw(const dtrace_probe_spec *spec);
    bool provide_named_spelling(const dtrace_probe_spec *spec);
    // The <provider-name>:::events and keyword probes of a catalog provider
    // under D provider `name` (its lower-case name, or another spelling).
    bool register_named_provider(size_t provider, const std::string &name);

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    const TraceCatalog &catalog_;
    const ManifestSet &manifests_;
    dtrace_provider_id etw_provider_ = 0;
    dtrace_provider_id diag_provider_ = 0;
    dtrace_probe_id diag_events_probe_ = 0;
    std::unordered_map<std::string, dtrace_provider_id> named_providers_; // D name (any spelling) -> id

    mutable std::mutex mutex_;                                // guards what follows
    std::deque<ProbeBinding> bindings_;                       // cookie = index
    std::unordered_map<dtrace_probe_id, uint64_t> cookie_of_; // probes already bound
    std::vector<bool> enabled_;                               // by cookie
    std::atomic<uint64_t> generation_{1};
};

} // namespace dtrace::etw::plugin
