// trace_catalog.cpp: the init pass over a trace.
#include "trace_catalog.h"

#include "provider_names.h"

namespace dtrace::etw::plugin {

TraceCatalog TraceCatalog::scan(EtlReader &reader) {
    TraceCatalog catalog;
    Event event;
    while (reader.next(event)) {
        catalog.note(event);
    }
    return catalog;
}

size_t TraceCatalog::index_of(const Guid &guid) const {
    auto it = by_guid_.find(guid);
    return it == by_guid_.end() ? kNotFound : it->second;
}

void TraceCatalog::note(const Event &event) {
    ++events_;
    auto [it, inserted] = by_guid_.try_emplace(event.provider, providers_.size());
    if (inserted) {
        CatalogProvider &added = providers_.emplace_back();
        added.guid = event.provider;
        added.guid_text = event.provider.to_string();
        added.name = known_provider_name(event.provider);
    }
    CatalogProvider &provider = providers_[it->second];
    ++provider.events;
    provider.event_ids.insert(event.id);
    if (provider.name.empty()) {
        provider.name = name_carried_by(event);
    }
}

} // namespace dtrace::etw::plugin
