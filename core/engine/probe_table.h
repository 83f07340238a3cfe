// probe_table.h: the providers and probes every plugin registered.
//
// Probe ids are dense and start at 1 in registration order; the core
// registers the dtrace provider first so that BEGIN, END and ERROR are ids
// 1, 2 and 3 as in DTrace. Probes never move once registered, so the engine
// keeps plain pointers to them.
//
// Threads: plugins register providers and probes from any thread, at any
// time, while others fire probes by id and match descriptions. Registration
// and lookups by name take the table's mutex; reading a probe by id, walking
// the probes and the providers take no lock (StableVector), and see every
// probe registered before the walk began.
#pragma once

#include "engine/probe_match.h"
#include "engine/stable_vector.h"
#include "host/probe_sink.h"

#include <dtrace/provider.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace dtrace::engine {

struct Ecb;

struct Provider {
    dtrace_provider_id id = 0;
    std::string name;
    dtrace_provider_attributes attributes{};
    std::string d_source;
    host::LoadedPlugin *owner = nullptr;
    std::atomic<bool> withdrawn{false}; // its plugin failed to initialise: its probes match nothing
    uint32_t flags = 0;                 // DTRACE_PROVIDER_*
};

struct Probe {
    dtrace_probe_id id = 0;
    Provider *provider = nullptr;
    std::string module, function, name;
    std::vector<std::string> module_aliases; // a description naming one exactly matches the module
    std::vector<host::ArgType> args;
    bool args_known = true;
    uint32_t nargs = 0;
    uint64_t cookie = 0;
    std::vector<Ecb *> ecbs; // enabled clauses, in enabling order (under the engine's probe-context lock)
    // Whether ecbs is non-empty, for the firing path's check before it takes the lock.
    std::atomic<bool> enabled{false};
    // Every clause of ecbs is applied without a DIFO (Ecb::direct_aggregations;
    // under the engine's probe-context lock): a firing needs no VM.
    bool direct_only = false;
};

class ProbeTable {
  public:
    // Fails if the provider has no name or one of that name exists.
    Result<dtrace_provider_id> add_provider(host::LoadedPlugin *owner, const dtrace_provider_info &info);
    // Registers a probe, or returns the id of the identical one registered
    // before; `added` (when given) tells which. 0 when the provider is unknown
    // or the table is full.
    dtrace_probe_id add_probe(dtrace_provider_id provider, const host::ProbeInfo &info, bool *added = nullptr);
    dtrace_probe_id lookup(dtrace_provider_id provider, std::string_view module, std::string_view function,
                           std::string_view name) const;

    Probe *probe(dtrace_probe_id id) const { return id == 0 || id > probes_.size() ? nullptr : &probes_[id - 1]; }
    size_t probe_count() const { return probes_.size(); }
    template <typename F> void for_each_provider(F &&visit) const { providers_.for_each(visit); }
    const Provider *find_provider(std::string_view name) const;
    void withdraw_provider(dtrace_provider_id provider);

    // Shared D libraries (dtrace_host_ops::register_library), in registration
    // order. Fails when `name` is registered with other text.
    Status add_library(std::string_view name, std::string_view source);
    template <typename F> void for_each_library(F &&visit) const {
        std::lock_guard guard(registry_lock_);
        for (const auto &[name, source] : libraries_)
            visit(name, source);
    }

    // Calls `visit` for every probe matching `desc`, in id order, among the
    // probes registered when the walk begins.
    void for_each_match(const ProbeDescription &desc, const std::function<void(Probe &)> &visit) const;
    static bool matches(const ProbeDescription &desc, const Probe &probe);

  private:
    static std::string key(dtrace_provider_id provider, std::string_view module, std::string_view function,
                           std::string_view name);
    mutable std::mutex registry_lock_; // writers of the sequences below, and by_key_
    StableVector<Provider, 4, 256> providers_;
    StableVector<Probe> probes_;
    std::unordered_map<std::string, dtrace_probe_id> by_key_;
    std::vector<std::pair<std::string, std::string>> libraries_;
};

} // namespace dtrace::engine
