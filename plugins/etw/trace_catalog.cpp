// trace_catalog.cpp: the init pass over a trace.
#include "trace_catalog.h"

#include "provider_names.h"
#include "trace_metadata.h"
#include "tracelogging_schema.h"

namespace dtrace::etw::plugin {

TraceCatalog TraceCatalog::scan(EtlReader &reader, ManifestSet &manifests) {
    TraceCatalog catalog;
    TraceMetadata metadata;
    Event event;
    while (reader.next(event)) {
        catalog.note(event, manifests);
        metadata.note(event);
    }
    catalog.metadata_problems_ = metadata.problems();
    manifests.add(metadata.take());
    for (CatalogProvider &p : catalog.providers_) {
        link(p, manifests);
    }
    for (const ManifestProvider &m : manifests.providers()) {
        catalog.provider(m.guid, manifests);
    }
    return catalog;
}

void TraceCatalog::link(CatalogProvider &p, const ManifestSet &manifests) {
    p.manifest = manifests.provider(p.guid);
    if (p.manifest == nullptr) {
        return;
    }
    if (!p.manifest->name.empty()) {
        p.name = p.manifest->name;
    }
    for (const ManifestEvent &e : p.manifest->events) {
        p.event_ids.insert(e.id);
    }
}

size_t TraceCatalog::index_of(const Guid &guid) const {
    auto it = by_guid_.find(guid);
    return it == by_guid_.end() ? kNotFound : it->second;
}

std::string TraceCatalog::label_of(const Event &event, const ManifestSet &manifests) {
    if (const ManifestProvider *manifest = manifests.provider(event.provider)) {
        return manifest->name;
    }
    std::string name(known_provider_name(event.provider));
    if (name.empty()) {
        name = name_carried_by(event);
    }
    return name.empty() ? event.provider.to_string() : name;
}

CatalogProvider &TraceCatalog::provider(const Guid &guid, const ManifestSet &manifests) {
    auto [it, inserted] = by_guid_.try_emplace(guid, providers_.size());
    if (inserted) {
        CatalogProvider &added = providers_.emplace_back();
        added.guid = guid;
        added.guid_text = guid.to_string();
        added.name = known_provider_name(guid);
        link(added, manifests);
    }
    return providers_[it->second];
}

void TraceCatalog::note(const Event &event, const ManifestSet &manifests) {
    ++events_;
    CatalogProvider &provider = this->provider(event.provider, manifests);
    ++provider.events;
    provider.event_ids.insert(event.id);
    if (provider.name.empty()) {
        provider.name = name_carried_by(event);
    }
    if (std::optional<std::span<const uint8_t>> metadata = tracelogging_metadata(event)) {
        std::optional<std::string_view> name = tracelogging_event_name(*metadata);
        if (name && provider.tracelogging_events.find(*name) == provider.tracelogging_events.end()) {
            if (std::optional<TraceLoggingSchema> schema = parse_tracelogging_schema(*metadata)) {
                provider.tracelogging_events.emplace(std::string(*name), std::move(schema->fields));
            }
        }
    }
}

} // namespace dtrace::etw::plugin
