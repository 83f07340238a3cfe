// probe_registry.cpp: registration, bindings and enablings of the etw plugin's probes.
#include "probe_registry.h"

#include "kernel/kernel_probes.h"
#include "payload_decoder.h"

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <unordered_map>

namespace dtrace::etw::plugin {

namespace {

constexpr dtrace_attribute kEvolving = {DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_COMMON};
constexpr dtrace_attribute kPrivate = {DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN};

// The argument conventions of the Windows ports (see etw_plugin.h).
// Addresses are uintptr_t: copyin()/copyinstr() read the replayed event's
// memory.
constexpr dtrace_arg_desc arg(const char *native_type, uint8_t index, const char *name = nullptr) {
    return {sizeof(dtrace_arg_desc), native_type, nullptr, index, name};
}
constexpr std::array<dtrace_arg_desc, 2> kEtwArgs = {arg("uintptr_t", 0), arg("uint32_t", 1)};
constexpr std::array<dtrace_arg_desc, 4> kProviderEventArgs = {arg("uint16_t", 0), arg("uint8_t", 1),
                                                               arg("uintptr_t", 2), arg("uint32_t", 3)};
constexpr std::array<dtrace_arg_desc, 5> kDiagRecordArgs = {arg("uintptr_t", 0), arg("uint16_t", 1), arg("uint8_t", 2),
                                                            arg("uint32_t", 3), arg("uintptr_t", 4)};
constexpr std::array<dtrace_arg_desc, 1> kMissedStackArgs = {arg("uint64_t", 0)};

std::span<const dtrace_arg_desc> args_of(ProbeKind kind) {
    switch (kind) {
    case ProbeKind::DiagEvents:
    case ProbeKind::DiagLostEvent:
        return kDiagRecordArgs;
    case ProbeKind::DiagMissedStack:
        return kMissedStackArgs;
    case ProbeKind::EtwEvent:
        return kEtwArgs;
    case ProbeKind::ProviderEvents:
    case ProbeKind::ProviderKeyword:
        return kProviderEventArgs;
    }
    return {};
}

// Providers a trace's provider name must not take over.
bool reserved(const std::string &name) {
    return name == kEtwProvider || name == kDiagProvider || name == "dtrace" || name == "profile" ||
           kernel::is_kernel_provider(name);
}

} // namespace

dtrace_provider_id ProbeRegistry::add_provider(const std::string &name) {
    // The GUID and level/keyword fields of etw probes, and the empty module
    // and function of the others, are implementation details of ETW.
    const dtrace_provider_info info = {
        .struct_size = sizeof info,
        .name = name.c_str(),
        .attributes = {kEvolving, kPrivate, kPrivate, kEvolving, kEvolving},
        .d_source = nullptr,
    };
    return ops_->register_provider(host_, &info);
}

dtrace_probe_id ProbeRegistry::add_probe(dtrace_provider_id provider, const std::string &module,
                                         const std::string &function, const std::string_view name,
                                         ProbeBinding binding) {
    return add_probe(provider, module, function, name, binding, args_of(binding.kind));
}

dtrace_probe_id ProbeRegistry::add_probe(dtrace_provider_id provider, const std::string &module,
                                         const std::string &function, const std::string_view name, ProbeBinding binding,
                                         std::span<const dtrace_arg_desc> args) {
    const std::string probe_name(name);
    std::lock_guard lock(mutex_);
    const uint64_t cookie = bindings_.size();
    const dtrace_probe_desc desc = {
        .struct_size = sizeof desc,
        .module = module.c_str(),
        .function = function.c_str(),
        .name = probe_name.c_str(),
        .nargs = static_cast<uint32_t>(args.size()),
        .args = args.data(),
        .cookie = cookie,
    };
    const dtrace_probe_id id = ops_->register_probe(host_, provider, &desc);
    if (id != 0 && cookie_of_.emplace(id, cookie).second) {
        binding.id = id;
        bindings_.push_back(binding);
        enabled_.push_back(false);
    }
    return id;
}

// args[i] is field i (native arg 2 + i: arg0 and arg1 keep their meaning),
// named as the field. A field that cannot be located, and every one after
// it, has a type that names no D type, so that reading it fails to compile
// rather than reading 0 (payload_decoder.h). Without a decodable field the
// probe keeps the untyped arguments.
dtrace_probe_id ProbeRegistry::add_typed_etw_probe(const EtwModule &where, const std::string &name,
                                                   ProbeBinding binding, std::span<const ManifestField> fields) {
    std::vector<dtrace_arg_desc> args;
    bool located = true;
    for (const ManifestField &f : fields) {
        if (args.size() == kMaxDecodedArgs) {
            break;
        }
        const std::optional<std::string_view> type = located ? field_d_type(f) : std::nullopt;
        located = type.has_value();
        args.push_back(arg(located ? type->data() : kUndecodedFieldType,
                           static_cast<uint8_t>(kEtwNativeArgs + args.size()), f.name.c_str()));
    }
    binding.decoded_args = args.size();
    if (args.empty() || !field_d_type(fields.front())) {
        return add_probe(etw_provider_, where.module, where.function, name, binding);
    }
    return add_probe(etw_provider_, where.module, where.function, name, binding, args);
}

// An etw probe of one event id takes the types of the fields of the latest
// version of the event its provider's manifest describes, if any.
dtrace_probe_id ProbeRegistry::add_etw_probe(const EtwModule &where, const std::string &name, ProbeBinding binding) {
    const CatalogProvider &p = catalog_.providers()[where.provider];
    const ManifestEvent *event =
        p.manifest && binding.event_id != kAnyEventId ? manifests_.latest(p.guid, binding.event_id) : nullptr;
    if (event == nullptr) {
        return add_probe(etw_provider_, where.module, where.function, name, binding);
    }
    return add_typed_etw_probe(where, name, binding, event->fields);
}

namespace {

// Whether args[] of two events read alike: the same fields with the same D types.
bool same_args(const std::vector<ManifestField> &a, const std::vector<ManifestField> &b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].name != b[i].name || field_d_type(a[i]) != field_d_type(b[i])) {
            return false;
        }
    }
    return true;
}

} // namespace

// A manifest event is also a probe by its name (the manifest's symbol, or
// the name trace metadata gives it: GCStart_V1), for that version of the
// event (and, for its latest version, the later ones). Trace metadata may
// give several events one name (their task's): the probe fires for each,
// typed when their fields read alike.
bool ProbeRegistry::add_manifest_name_probes(const EtwModule &where, const char *name_pattern) {
    const CatalogProvider &p = catalog_.providers()[where.provider];
    if (p.manifest == nullptr) {
        return true;
    }
    std::vector<std::pair<std::string_view, std::vector<const ManifestEvent *>>> names; // the manifest's order
    std::unordered_map<std::string_view, size_t> index_of;
    for (const ManifestEvent &e : p.manifest->events) {
        if (!usable_event_name(e.name) || p.tracelogging_events.contains(e.name) ||
            !spec_field_matches(name_pattern, e.name)) {
            continue;
        }
        auto [it, inserted] = index_of.try_emplace(e.name, names.size());
        if (inserted) {
            names.emplace_back(e.name, std::vector<const ManifestEvent *>{});
        }
        names[it->second].second.push_back(&e);
    }
    for (const auto &[name, events] : names) {
        ProbeBinding binding{.kind = ProbeKind::EtwEvent, .provider = where.provider, .filter = where.filter};
        bool alike = true;
        for (const ManifestEvent *e : events) {
            const ManifestEvent *latest = manifests_.latest(p.guid, e->id);
            binding.named_events.push_back({e->id, e->version, latest != nullptr && latest->version == e->version});
            alike = alike && same_args(e->fields, events.front()->fields);
        }
        const std::string probe_name(name);
        const dtrace_probe_id id = alike ? add_typed_etw_probe(where, probe_name, binding, events.front()->fields)
                                         : add_probe(etw_provider_, where.module, where.function, probe_name, binding);
        if (id == 0) {
            return false;
        }
    }
    return true;
}

bool ProbeRegistry::add_etw_probes(const EtwModule &where, const char *name_pattern) {
    const CatalogProvider &p = catalog_.providers()[where.provider];
    ProbeBinding binding{.kind = ProbeKind::EtwEvent, .provider = where.provider, .filter = where.filter};
    const std::string generic(kGenericEvent);
    if (spec_field_matches(name_pattern, generic) && add_etw_probe(where, generic, binding) == 0) {
        return false;
    }
    for (uint16_t id : p.event_ids) {
        const std::string name = event_id_name(id);
        binding.event_id = id;
        if (spec_field_matches(name_pattern, name) && add_etw_probe(where, name, binding) == 0) {
            return false;
        }
    }
    binding.event_id = kAnyEventId;
    for (const auto &[name, fields] : p.tracelogging_events) {
        binding.tracelogging_name = name;
        if (spec_field_matches(name_pattern, name) && add_typed_etw_probe(where, name, binding, fields) == 0) {
            return false;
        }
    }
    return add_manifest_name_probes(where, name_pattern);
}

// Keyword probes are named as the manifest names the keyword (GCKeyword).
bool ProbeRegistry::register_named_provider(size_t provider, const std::string &name) {
    if (name.empty() || reserved(provider_probe_name(name))) {
        return true;
    }
    auto [it, inserted] = named_providers_.try_emplace(name, 0);
    if (inserted) {
        it->second = add_provider(name);
    }
    if (it->second == 0) {
        return true; // the host has said why; the provider stays reachable through etw and diag
    }
    const std::string empty;
    if (add_probe(it->second, empty, empty, kProviderEvents,
                  ProbeBinding{.kind = ProbeKind::ProviderEvents, .provider = provider}) == 0) {
        return false;
    }
    const ManifestProvider *manifest = catalog_.providers()[provider].manifest;
    if (manifest == nullptr) {
        return true;
    }
    for (const ManifestKeyword &k : manifest->keywords) {
        const ProbeBinding binding{.kind = ProbeKind::ProviderKeyword, .provider = provider, .keyword_mask = k.mask};
        if (add_probe(it->second, empty, empty, k.name, binding) == 0) {
            return false;
        }
    }
    return true;
}

bool ProbeRegistry::register_all() {
    etw_provider_ = add_provider(std::string(kEtwProvider));
    diag_provider_ = add_provider(std::string(kDiagProvider));
    if (etw_provider_ == 0 || diag_provider_ == 0) {
        return false;
    }
    const std::string empty;
    diag_events_probe_ = add_probe(diag_provider_, empty, empty, kDiagEvents, {.kind = ProbeKind::DiagEvents});
    if (diag_events_probe_ == 0 ||
        add_probe(diag_provider_, empty, empty, kDiagLostEvent, {.kind = ProbeKind::DiagLostEvent}) == 0 ||
        add_probe(diag_provider_, empty, empty, kDiagMissedStack, {.kind = ProbeKind::DiagMissedStack}) == 0) {
        return false;
    }
    return register_catalog();
}

bool ProbeRegistry::register_catalog() {
    const std::string every = format_filter(kMatchEverything);
    for (size_t i = 0; i < catalog_.providers().size(); ++i) {
        if (!add_etw_probes({i, catalog_.providers()[i].guid_text, every, kMatchEverything}, nullptr)) {
            return false;
        }
    }
    for (size_t i = 0; i < catalog_.providers().size(); ++i) {
        if (!register_named_provider(i, provider_probe_name(catalog_.providers()[i].name))) {
            return false;
        }
    }
    return true;
}

bool ProbeRegistry::provide(const dtrace_probe_spec *spec) {
    return spec == nullptr || (provide_etw(spec) && provide_named_spelling(spec));
}

// etw probes of a filter the spec's function field gives, and of a module
// that spells a provider's GUID or name in a way the registered GUIDs do
// not match (etw:Microsoft-Windows-DotNETRuntime::GCStart_V1).
bool ProbeRegistry::provide_etw(const dtrace_probe_spec *spec) {
    if (!spec_field_matches(spec->provider, std::string(kEtwProvider))) {
        return true;
    }
    const std::string every = format_filter(kMatchEverything);
    const std::optional<LevelKeywordFilter> filter =
        spec->function != nullptr ? parse_filter(spec->function) : std::nullopt;
    if (!filter && !spec_field_matches(spec->function, every)) {
        return true;
    }
    const bool spelled = is_plain_name(spec->module);
    for (size_t i = 0; i < catalog_.providers().size(); ++i) {
        const CatalogProvider &p = catalog_.providers()[i];
        EtwModule where{i, p.guid_text, filter ? std::string(spec->function) : every,
                        filter.value_or(kMatchEverything)};
        if (!spec_field_matches(spec->module, p.guid_text)) {
            if (!spelled || !(same_ignoring_case(spec->module, p.guid_text) ||
                              (!p.name.empty() && same_ignoring_case(spec->module, p.name)))) {
                continue;
            }
            where.module = spec->module;
        } else if (!filter) {
            continue; // register_catalog() made these
        }
        if (!add_etw_probes(where, spec->name)) {
            return false;
        }
    }
    return true;
}

// A named provider spelled in another case than its D name
// (Microsoft-Windows-DotNETRuntime:::events) gets its probes under that
// spelling too.
bool ProbeRegistry::provide_named_spelling(const dtrace_probe_spec *spec) {
    if (!is_plain_name(spec->provider)) {
        return true;
    }
    const std::string given = spec->provider;
    const std::string lower = provider_probe_name(given);
    if (given == lower || !named_providers_.contains(lower)) {
        return true;
    }
    for (size_t i = 0; i < catalog_.providers().size(); ++i) {
        if (provider_probe_name(catalog_.providers()[i].name) == lower && !register_named_provider(i, given)) {
            return false;
        }
    }
    return true;
}

bool ProbeRegistry::set_enabled(uint64_t cookie, bool enabled) {
    std::lock_guard lock(mutex_);
    if (cookie >= enabled_.size()) {
        return false;
    }
    enabled_[cookie] = enabled;
    generation_.fetch_add(1, std::memory_order_release);
    return true;
}

void ProbeRegistry::copy_enabled(EnabledProbes &out, uint64_t &generation) const {
    std::lock_guard lock(mutex_);
    generation = generation_.load(std::memory_order_relaxed);
    out = EnabledProbes{};
    out.providers.resize(catalog_.providers().size());
    for (uint64_t cookie = 0; cookie < bindings_.size(); ++cookie) {
        if (!enabled_[cookie]) {
            continue;
        }
        const ProbeBinding &b = bindings_[cookie];
        switch (b.kind) {
        case ProbeKind::DiagEvents:
            out.diag_events = b.id;
            break;
        case ProbeKind::DiagLostEvent:
            out.diag_lost_event = b.id;
            break;
        case ProbeKind::DiagMissedStack:
            out.diag_missed_stack = b.id;
            break;
        case ProbeKind::EtwEvent:
            out.providers[b.provider].etw.push_back(b);
            break;
        case ProbeKind::ProviderKeyword:
            out.providers[b.provider].keywords.push_back(b);
            break;
        case ProbeKind::ProviderEvents: {
            // Providers that share a name share the probe.
            const std::string name = provider_probe_name(catalog_.providers()[b.provider].name);
            for (size_t i = 0; i < catalog_.providers().size(); ++i) {
                if (provider_probe_name(catalog_.providers()[i].name) == name) {
                    out.providers[i].events.push_back(b.id);
                }
            }
            break;
        }
        }
    }
    out.any_provider = std::any_of(out.providers.begin(), out.providers.end(), [](const auto &p) {
        return !p.etw.empty() || !p.events.empty() || !p.keywords.empty();
    });
}

} // namespace dtrace::etw::plugin
