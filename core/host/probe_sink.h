// probe_sink.h: what the plugin host needs from the engine.
//
// The host translates the SDK's C function tables into calls on this
// interface, so that the engine never sees a plugin's C structs other than the
// event context, and plugins never see the engine. The engine implements it.
//
// Threading: plugins call their host ops from their own threads, so fire(),
// report_drops() and report_error() arrive concurrently from any thread, and
// a plugin may also register providers and probes from its threads (say, a
// replay that meets a new provider mid-trace). Strings in the C structs passed
// here are only valid during the call: copy what you keep.
#pragma once

#include "common/result.h"

#include <dtrace/provider.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::host {

class LoadedPlugin; // one plugin instance (host-owned)

struct ArgType {
    std::string native_type;     // D type of argN
    std::string translated_type; // D type of args[i]; equals native_type when not translated
    uint8_t native_index = 0;
    std::string name; // what the argument is (an event field's name); empty: unnamed
};

struct ProbeInfo {
    std::string module, function, name;
    std::vector<std::string> module_aliases; // spelled exactly by a description, they match module too
    std::vector<ArgType> args;               // empty with args_known == false: ask the plugin (arg_info) when needed
    bool args_known = true;
    uint32_t nargs = 0;
    uint64_t cookie = 0;
};

class ProbeSink {
  public:
    virtual ~ProbeSink() = default;
    // Fails when a provider of that name already exists.
    virtual Result<dtrace_provider_id> add_provider(LoadedPlugin &owner, const dtrace_provider_info &info) = 0;
    // Registers a probe (or returns the id of the identical one already there).
    virtual dtrace_probe_id add_probe(dtrace_provider_id provider, const ProbeInfo &probe) = 0;
    virtual dtrace_probe_id lookup_probe(dtrace_provider_id provider, std::string_view module,
                                         std::string_view function, std::string_view name) const = 0;
    virtual void fire(dtrace_probe_id probe, const dtrace_event_ctx &ctx) = 0;
    virtual void report_drops(uint32_t cpu, uint64_t count, dtrace_drop_kind kind) = 0;
    // The value of a -x option, or nullptr. The pointer stays valid for the session.
    virtual const char *option(std::string_view name) const = 0;
    virtual void input_finished() = 0;
    // See dtrace_host_ops::add_trace_timer. Returns 0, or -1 when not replaying.
    virtual int add_trace_timer(dtrace_probe_id probe, uint64_t interval_ns, uint32_t flags) { return -1; }
    // A plugin's message for the user (report_error, or text it reported
    // during a call that still succeeded). The default prints
    // "dtrace: <plugin>: <message>" on stderr.
    virtual void report_error(std::string_view plugin, std::string_view message);
    // Drops a provider, and its probes, that a plugin registered before its
    // init failed: the LoadedPlugin given to add_provider no longer exists.
    // The default keeps them (their owner must then never be used).
    virtual void remove_provider(dtrace_provider_id provider) {}
    // A D library several plugins share (dtrace_host_ops::register_library).
    // Fails when `name` is registered with other text.
    virtual Status add_library(std::string_view name, std::string_view source) {
        return Failure{"this host takes no shared D libraries"};
    }
    // A replaying plugin's progress (dtrace_host_ops::report_progress); any thread.
    virtual void report_progress(uint64_t done, uint64_t total, uint64_t events) {}
    // What the clauses enabled on `probe` read (dtrace_host_ops::probe_usage);
    // false for an unknown probe.
    virtual bool probe_usage(dtrace_probe_id probe, dtrace_probe_usage &out) { return false; }
};

} // namespace dtrace::host
