// etw_plugin.h: the etw plugin, D scripts over ETW trace files (dtrace -E).
//
// Windows records ETW events into .etl files (xperf, WPR, PerfView, logman);
// with this plugin `dtrace -s script.d -E trace.etl` (or trace.etl.zip) runs
// a script over such a file on any system. -E sets the option "replay"; the
// plugin declares DTRACE_PLUGIN_REPLAY, so it is loaded when replaying and
// the live plugins are not. Without -E it registers nothing and does nothing.
//
// init() opens the file (a missing file is an error that says recording
// live ETW needs Windows) and registers the diag and etw providers. The
// first probe description that may name anything but diag:::, dtrace:::
// or profile::: (and -l without one) makes the plugin read the whole file
// once to learn its providers and event ids (trace_catalog.h) and register
// their probes, so `dtrace -l -E file` lists them; a script of diag probes
// alone replays the file without that pass. start() replays the file on one thread in timestamp order
// (replay_thread.h); at its end the host fires END. tick-N fires on trace
// time (the host does that from the events' timestamps).
//
// Events to probes (the conventions of the two Windows ports; lower case):
//
// | probe                                   | fires for                           | arguments                     |
// |-----------------------------------------|-------------------------------------|-------------------------------|
// | diag:::events                           | every record in the file, the trace | arg0 provider name (string),  |
// |                                         | header and kernel rundown included  | arg1 event id, arg2 opcode,   |
// |                                         |                                     | arg3 payload length, arg4     |
// |                                         |                                     | payload (prefixed, see below) |
// | diag:::lostevent                        | RT_LostEvent records                | as diag:::events              |
// | diag:::missed-stack                     | kernel StackWalk/Stack events that  | arg0 timestamp of the stack's |
// |                                         | name no event of the trace (others  | event (ns since the epoch)    |
// |                                         | go to their event: stack_attach.h); |                               |
// |                                         | the stack is in stack()/ustack(),   |                               |
// |                                         | pid and tid are the stack's thread's|                               |
// | etw:<guid>:0xff_0xffffffffffffffff:<id> | events of provider <guid> with      | arg0 EVENT_HEADER followed by |
// |                                         | event id <id>                       | the payload, arg1 its size;   |
// |                                         |                                     | with a manifest, args[0..7]   |
// |                                         |                                     | the event's fields            |
// | etw:<guid>:0xff_0xffffffffffffffff:     | every event of provider <guid>      | as above                      |
// |   generic_event                         |                                     |                               |
// | etw:<guid>:0xff_0xffffffffffffffff:     | TraceLogging events of that name    | as above; args[0..7] fields   |
// |   <event-name>                          |                                     | from the event's own schema   |
// | etw:<guid>:0xLL_0xKKKKKKKKKKKKKKKK:     | as the three above, for events that | as above                      |
// |   <id>|<event-name>|generic_event       | pass ETW's level/keyword filter     |                               |
// |                                         | (made on demand from the script)    |                               |
// | <provider-name>:::events                | every event of a named provider     | arg0 event id, arg1 opcode,   |
// |                                         |                                     | arg2 payload (prefixed), arg3 |
// |                                         |                                     | payload length                |
// | <provider-name>:::<keyword-name>        | its events with a keyword that a    | as above                      |
// |                                         | registered manifest names           |                               |
// | proc, sched, io, fsinfo, reg, pf,       | the NT kernel's events, as the      | translated (psinfo_t * ...):  |
// |   tcpip, udpip, dpc, isr, syscall,      |   Windows port presents them        | kernel/kernel_probes.h        |
// |   sampled                               |                                     |                               |
//
// <guid> is the provider GUID; NT kernel events have their event class's GUID
// (Process, Thread, DiskIo ...) with the hook type as opcode, and event id 0,
// as Windows presents them; classic events have id 0 too. Providers are named
// as provider_names.h says. "Prefixed" payloads are preceded by 4 bytes, as the
// Dtrace-ETW port lays them out: u16 event id, u8 version, u8 1 for a 64-bit
// logger (0 for 32-bit); so `*(uint8_t *)copyin(arg2 - 1, 1)` is the logger's
// bitness.
// Pointer arguments are uintptr_t, read with copyin()/copyinstr()
// (event_memory.h). With a manifest (-x etwmanifest, manifest_set.h), the
// etw probes of an event id have typed args[]: args[i] is field i, decoded
// into arg(i+2) (payload_decoder.h); TraceLogging events likewise from their
// own schema (tracelogging_schema.h).
//
// Every firing has: timestamp and walltimestamp = the event's time in ns
// since the Unix epoch; cpu, pid and tid from the record (-1 when the record
// has none); execname and ppid from the Process events seen earlier
// (process_table.h), else "" and -1.
//
// Corrupt buffers the reader skips are reported as drops (kind CORRUPT) with
// the reader's message naming the file and offset; the replay goes on.
//
// etw_trace(provider, guid, event, level, keyword, type, name, value, ...)
// writes TraceLogging events to the file -x etwtrace=PATH names, which -E
// replays (etw_trace_action.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <dtrace/provider.h>

#include "clr_methods.h"
#include "etw_trace_action.h"
#include "kernel/kernel_probes.h"
#include "kernel/module_map.h"
#include "manifest_set.h"
#include "probe_registry.h"
#include "replay_family.h"
#include "replay_thread.h"
#include "trace_catalog.h"

namespace dtrace::etw::plugin {

// The plugin's state between the host's calls. Empty (replaying() false)
// when -E was not given.
class EtwPlugin {
  public:
    // families: probe families of other components that the replay fires
    // too (replay_family.h).
    EtwPlugin(dtrace_host *host, const dtrace_host_ops *ops, ReplayFamilies families = {})
        : host_(host), ops_(ops), trace_action_(host, ops), families_(std::move(families)) {}

    dtrace_host *host() const { return host_; }
    const dtrace_host_ops *ops() const { return ops_; }

    // Returns 0, or -1 after report_error.
    int init();
    int provide(const dtrace_probe_spec *spec);
    int set_enabled(uint64_t cookie, bool enabled);
    int start();
    void stop();
    // Names the image that holds an address of a replayed stack (the
    // SDK's lookup_symbol: module and offset, no function: the trace has
    // no symbols). -1 when no Image event placed one there.
    int lookup_symbol(uint32_t space, int64_t pid, uint64_t address, dtrace_symbol *out);
    // etw_trace() (etw_trace_action.h), with or without -E.
    EtwTraceAction &trace_action() { return trace_action_; }

  private:
    bool replaying() const { return registry_ != nullptr; }
    void announce_session() const;
    // Reads the file for its catalog and registers its probes, once.
    bool catalogue();
    bool family_set_enabled(uint64_t cookie, bool enabled);
    bool register_families();                               // once, at the first provide() that may name them
    bool names_family(const dtrace_probe_spec *spec) const; // a replay family's provider, by its exact name

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    std::vector<std::string> paths_; // the -E files (replay_source.h)
    ManifestSet manifests_;
    std::optional<TraceCatalog> catalog_;     // empty until catalogue()
    std::optional<EtlReader> catalog_reader_; // opened by init(), read by catalogue()
    std::unique_ptr<ProbeRegistry> registry_;
    kernel::KernelProbes kernel_probes_;
    kernel::ModuleMap modules_;
    ClrMethods methods_;
    std::string symbol_module_; // the last lookup's answer, valid until the next
    std::string symbol_function_;
    std::unique_ptr<ReplayThread> replay_;
    EtwTraceAction trace_action_;
    ReplayFamilies families_;
    bool families_registered_ = false;
};

} // namespace dtrace::etw::plugin
