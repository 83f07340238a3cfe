// probe_table.h: the providers and probes every plugin registered.
//
// Probe ids are dense and start at 1 in registration order; the core
// registers the dtrace provider first so that BEGIN, END and ERROR are ids
// 1, 2 and 3 as in DTrace. Probes never move once registered (each is owned
// by its own allocation), so the engine keeps plain pointers to them.
#pragma once

#include "engine/probe_match.h"
#include "host/probe_sink.h"

#include <dtrace/provider.h>

#include <deque>
#include <functional>
#include <memory>
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
    bool withdrawn = false; // its plugin failed to initialise: its probes match nothing
};

struct Probe {
    dtrace_probe_id id = 0;
    Provider *provider = nullptr;
    std::string module, function, name;
    std::vector<host::ArgType> args;
    bool args_known = true;
    uint32_t nargs = 0;
    uint64_t cookie = 0;
    std::vector<Ecb *> ecbs; // enabled clauses, in enabling order
};

class ProbeTable {
  public:
    // Returns 0 and sets `error` if a provider of that name exists.
    dtrace_provider_id add_provider(host::LoadedPlugin *owner, const dtrace_provider_info &info, std::string &error);
    dtrace_probe_id add_probe(dtrace_provider_id provider, const host::ProbeInfo &info);
    dtrace_probe_id lookup(dtrace_provider_id provider, std::string_view module, std::string_view function,
                           std::string_view name) const;

    Probe *probe(dtrace_probe_id id) { return id == 0 || id > probes_.size() ? nullptr : probes_[id - 1].get(); }
    const Probe *probe(dtrace_probe_id id) const {
        return id == 0 || id > probes_.size() ? nullptr : probes_[id - 1].get();
    }
    size_t probe_count() const { return probes_.size(); }
    const std::deque<Provider> &providers() const { return providers_; }
    const Provider *find_provider(std::string_view name) const;
    void withdraw_provider(dtrace_provider_id provider);

    // Calls `visit` for every probe matching `desc`, in id order.
    void for_each_match(const ProbeDescription &desc, const std::function<void(Probe &)> &visit);

  private:
    static std::string key(dtrace_provider_id provider, std::string_view module, std::string_view function,
                           std::string_view name);
    std::deque<Provider> providers_;
    // Indexed by id on every firing: a vector of owned probes (a deque's
    // index needs a division when the element size is not a power of two).
    std::vector<std::unique_ptr<Probe>> probes_;
    std::unordered_map<std::string, dtrace_probe_id> by_key_;
};

} // namespace dtrace::engine
