// probe_table.cpp: registration, lookup and matching of probes.
#include "engine/probe_table.h"

#include "host/abi.h"

#include <algorithm>

namespace dtrace::engine {

std::string ProbeTable::key(dtrace_provider_id provider, std::string_view module, std::string_view function,
                            std::string_view name) {
    std::string k = std::to_string(provider);
    for (std::string_view part : {module, function, name}) {
        k += '\0';
        k += part;
    }
    return k;
}

const Provider *ProbeTable::find_provider(std::string_view name) const {
    const size_t n = providers_.size();
    for (size_t i = 0; i < n; i++) {
        const Provider &p = providers_[i];
        if (p.name == name && !p.withdrawn.load(std::memory_order_acquire))
            return &p;
    }
    return nullptr;
}

void ProbeTable::withdraw_provider(dtrace_provider_id provider) {
    std::lock_guard guard(registry_lock_);
    if (provider == 0 || provider > providers_.size())
        return;
    Provider &p = providers_[provider - 1];
    p.owner = nullptr;
    p.withdrawn.store(true, std::memory_order_release);
}

dtrace_provider_id ProbeTable::add_provider(host::LoadedPlugin *owner, const dtrace_provider_info &info,
                                            std::string &error) {
    if (!info.name || !*info.name) {
        error = "provider has no name";
        return 0;
    }
    std::lock_guard guard(registry_lock_);
    if (find_provider(info.name)) {
        error = std::string("provider ") + info.name + " is already registered";
        return 0;
    }
    Provider *p = providers_.prepare();
    if (!p) {
        error = "too many providers";
        return 0;
    }
    p->id = static_cast<dtrace_provider_id>(providers_.size() + 1);
    p->name = info.name;
    p->attributes = info.attributes;
    if (info.d_source)
        p->d_source = info.d_source;
    if (host::abi::covers(&info, host::abi::kProviderInfoFlagsSize))
        p->flags = info.flags;
    p->owner = owner;
    providers_.publish();
    return p->id;
}

dtrace_probe_id ProbeTable::add_probe(dtrace_provider_id provider, const host::ProbeInfo &info, bool *added) {
    if (added)
        *added = false;
    std::lock_guard guard(registry_lock_);
    if (provider == 0 || provider > providers_.size())
        return 0;
    std::string k = key(provider, info.module, info.function, info.name);
    auto [it, inserted] = by_key_.try_emplace(std::move(k), 0);
    if (!inserted)
        return it->second;
    Probe *p = probes_.prepare();
    if (!p) {
        by_key_.erase(it);
        return 0;
    }
    p->id = static_cast<dtrace_probe_id>(probes_.size() + 1);
    p->provider = &providers_[provider - 1];
    p->module = info.module;
    p->module_aliases = info.module_aliases;
    p->function = info.function;
    p->name = info.name;
    p->args = info.args;
    p->args_known = info.args_known;
    p->nargs = info.args_known ? static_cast<uint32_t>(info.args.size()) : info.nargs;
    p->cookie = info.cookie;
    it->second = p->id;
    probes_.publish();
    if (added)
        *added = true;
    return p->id;
}

dtrace_probe_id ProbeTable::lookup(dtrace_provider_id provider, std::string_view module, std::string_view function,
                                   std::string_view name) const {
    std::lock_guard guard(registry_lock_);
    auto it = by_key_.find(key(provider, module, function, name));
    return it == by_key_.end() ? 0 : it->second;
}

bool ProbeTable::matches(const ProbeDescription &desc, const Probe &probe) {
    if (probe.provider->withdrawn.load(std::memory_order_acquire))
        return false;
    if (desc.probe_id != 0)
        return desc.probe_id == probe.id;
    const bool module =
        field_matches(desc.module, probe.module) ||
        std::find(probe.module_aliases.begin(), probe.module_aliases.end(), desc.module) != probe.module_aliases.end();
    return field_matches(desc.provider, probe.provider->name) && module &&
           field_matches(desc.function, probe.function) && field_matches(desc.name, probe.name);
}

void ProbeTable::for_each_match(const ProbeDescription &desc, const std::function<void(Probe &)> &visit) const {
    if (desc.probe_id != 0) {
        if (Probe *p = probe(desc.probe_id); p && matches(desc, *p))
            visit(*p);
        return;
    }
    probes_.for_each([&](Probe &p) {
        if (matches(desc, p))
            visit(p);
    });
}

Status ProbeTable::add_library(std::string_view name, std::string_view source) {
    std::lock_guard guard(registry_lock_);
    for (const auto &[known, text] : libraries_) {
        if (known != name)
            continue;
        if (text == source)
            return {};
        return Failure{"library " + std::string(name) + " is already registered with other text"};
    }
    libraries_.emplace_back(name, source);
    return {};
}

} // namespace dtrace::engine
