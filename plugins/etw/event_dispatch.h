// event_dispatch.h: one replayed event, fired on the probes it matches.
//
// The replay thread hands each event here in timestamp order. The event
// becomes a dtrace_event_ctx (time, CPU, ids, execname from the process
// table, the memory reader over the event) and is fired on every enabled
// probe it matches, in a fixed order so that a replay prints the same bytes
// every time: diag:::events, diag:::lostevent, the provider's etw probes in
// the order they were registered, <provider-name>:::events, the kernel
// providers' probes (kernel/kernel_probes.h), diag:::missed-stack. diag:::events is fired even when not enabled, with
// no arguments: the host advances trace time (tick-N) on every firing; and
// without them too when its clauses read none (probe_usage: `@ = count()`).
// The replay families' probes (replay_family.h) fire after the kernel providers'.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <dtrace/provider.h>

#include "clr_methods.h"
#include "event_memory.h"
#include "kernel/kernel_dispatch.h"
#include "kernel/kernel_probes.h"
#include "kernel/stack_attach.h"
#include "manifest_set.h"
#include "payload_decoder.h"
#include "probe_registry.h"
#include "process_table.h"
#include "reader/event.h"
#include "reader/trace_clock.h"
#include "replay_family.h"
#include "stack_keys.h"
#include "stack_walk.h"
#include "trace_catalog.h"
#include "tracelogging_schema.h"

namespace dtrace::etw::plugin {

// What init() learned, which the replay reads and never changes.
struct ReplayInputs {
    const TraceCatalog &catalog;
    const ManifestSet &manifests;
    const ProbeRegistry &registry;
    const kernel::KernelProbes &kernel_probes;
    kernel::ModuleMap &modules; // filled from Image events, read by symbol lookups
    ClrMethods &methods;        // filled from the CLR's method events, read likewise
    bool walks_stacks = false;  // the file has StackWalk events early on (stack_attach.h)
    StackKeys::Opener reopen;   // a second reader of the file, for stack keys (stack_keys.h)
    // Fired after the kernel providers (replay_family.h).
    ReplayFamilies *families = nullptr;
};

class EventDispatch {
  public:
    EventDispatch(dtrace_host *host, const dtrace_host_ops *ops, const ReplayInputs &inputs, const TraceClock &clock);

    // Kernel events may be held back until their stack is seen
    // (kernel/stack_attach.h): call finish() after the last event.
    void dispatch(const Event &event);
    void finish();

  private:
    // One event with its stack (nullptr: none); stack_attached: a StackWalk
    // event whose stack went to its event (no diag:::missed-stack then).
    void dispatch_now(const Event &event, const WalkedStack *stack, bool stack_attached);
    // Sets what changes from event to event in ctx_, which every probe of
    // the event is fired with (only args change from probe to probe).
    void set_context(const Event &event, uint32_t pid, uint32_t tid, const WalkedStack *stack);
    void fire(dtrace_probe_id probe, std::span<const uint64_t> args);
    size_t provider_index(const Guid &guid);
    const std::string &provider_label(const Event &event);
    const std::string &uncatalogued_label(const Event &event); // the first time in a run
    void fire_missed_stack(const Event &event);
    bool etw_matches(const Event &event, const ProbeBinding &binding);
    void fire_etw(const Event &event, const ProbeBinding &binding);
    // The event's TraceLogging schema (parsed once per event), or nullptr.
    const TraceLoggingSchema *tracelogging_schema(const Event &event);

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    const TraceCatalog &catalog_;
    const ManifestSet &manifests_;
    const ProbeRegistry &registry_;
    ClrMethods &methods_;
    ReplayFamilies *families_;
    TraceClock clock_;
    dtrace_event_ctx ctx_{};
    EnabledProbes enabled_;
    uint64_t generation_ = 0;
    // Whether diag:::events' clauses read its arguments (probe_usage), as of
    // enabled_'s generation usage_generation_: a clause that only counts
    // (`@ = count()`) spares the event its provider label and payload copy.
    bool diag_events_reads_args_ = true;
    // Whether an event's provider is looked up (provider_index()): for the
    // provider's probes, or the label diag:::events' and lostevent's arguments name.
    bool looks_up_provider_ = true;
    uint64_t usage_generation_ = UINT64_MAX;
    EventMemory memory_;
    ProcessTable processes_;
    kernel::KernelDispatch kernel_; // the kernel providers; it keeps processes_ up to date
    StackKeys stack_keys_;
    kernel::FileNamesAhead file_names_; // after kernel_, which points to them
    kernel::DiskCompletionsAhead disk_completions_;
    kernel::VolumeMap volumes_;
    kernel::StackAttach attach_;
    WalkedStack stack_;
    CarriedStacks carried_stacks_; // the stacks events carry (STACK_TRACE items)
    // The event's PMC counters (replay_counters.h).
    std::vector<dtrace_counter_value> counter_values_;
    DecodedPayload decoded_;
    std::vector<uint64_t> etw_args_; // the arguments of an etw probe (kept: no allocation per firing)
    uint64_t event_serial_ = 0;      // events dispatched
    uint64_t decoded_serial_ = 0;    // the event decoded_ holds
    TraceLoggingSchema tracelogging_schema_;
    bool has_tracelogging_schema_ = false;
    uint64_t tracelogging_serial_ = 0; // the event tracelogging_schema_ describes
    Guid last_guid_;
    size_t last_index_ = TraceCatalog::kNotFound;
    // Labels of providers the catalog does not hold, by GUID; diag:::events
    // hands their addresses to D, so they stay put (node-based map).
    std::unordered_map<Guid, std::string, GuidHash> uncatalogued_labels_;
    bool last_known_ = false;                 // last_guid_, last_index_ are set
    const std::string *last_label_ = nullptr; // last_guid_'s (uncatalogued: once asked for)
};

} // namespace dtrace::etw::plugin
