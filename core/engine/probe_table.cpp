// probe_table.cpp: registration, lookup and matching of probes.
#include "engine/probe_table.h"

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
    for (const Provider &p : providers_) {
        if (p.name == name && !p.withdrawn)
            return &p;
    }
    return nullptr;
}

void ProbeTable::withdraw_provider(dtrace_provider_id provider) {
    if (provider == 0 || provider > providers_.size())
        return;
    Provider &p = providers_[provider - 1];
    p.withdrawn = true;
    p.owner = nullptr;
}

dtrace_provider_id ProbeTable::add_provider(host::LoadedPlugin *owner, const dtrace_provider_info &info,
                                            std::string &error) {
    if (!info.name || !*info.name) {
        error = "provider has no name";
        return 0;
    }
    if (find_provider(info.name)) {
        error = std::string("provider ") + info.name + " is already registered";
        return 0;
    }
    Provider &p = providers_.emplace_back();
    p.id = static_cast<dtrace_provider_id>(providers_.size());
    p.name = info.name;
    p.attributes = info.attributes;
    if (info.d_source)
        p.d_source = info.d_source;
    p.owner = owner;
    return p.id;
}

dtrace_probe_id ProbeTable::add_probe(dtrace_provider_id provider, const host::ProbeInfo &info) {
    if (provider == 0 || provider > providers_.size())
        return 0;
    std::string k = key(provider, info.module, info.function, info.name);
    auto [it, inserted] = by_key_.try_emplace(std::move(k), 0);
    if (!inserted)
        return it->second;
    Probe &p = *probes_.emplace_back(std::make_unique<Probe>());
    p.id = static_cast<dtrace_probe_id>(probes_.size());
    p.provider = &providers_[provider - 1];
    p.module = info.module;
    p.function = info.function;
    p.name = info.name;
    p.args = info.args;
    p.args_known = info.args_known;
    p.nargs = info.args_known ? static_cast<uint32_t>(info.args.size()) : info.nargs;
    p.cookie = info.cookie;
    it->second = p.id;
    return p.id;
}

dtrace_probe_id ProbeTable::lookup(dtrace_provider_id provider, std::string_view module, std::string_view function,
                                   std::string_view name) const {
    auto it = by_key_.find(key(provider, module, function, name));
    return it == by_key_.end() ? 0 : it->second;
}

void ProbeTable::for_each_match(const ProbeDescription &desc, const std::function<void(Probe &)> &visit) {
    if (desc.probe_id != 0) {
        if (Probe *p = probe(desc.probe_id); p && !p->provider->withdrawn)
            visit(*p);
        return;
    }
    for (const std::unique_ptr<Probe> &p : probes_) {
        if (!p->provider->withdrawn && field_matches(desc.provider, p->provider->name) &&
            field_matches(desc.module, p->module) && field_matches(desc.function, p->function) &&
            field_matches(desc.name, p->name))
            visit(*p);
    }
}

} // namespace dtrace::engine
