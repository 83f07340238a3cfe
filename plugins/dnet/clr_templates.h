// clr_templates.h: the CLR manifest's templates (clr_event_table.h) as the
// etw plugin's decodable fields, by provider, event id and version.
//
// Built once, when the dnet probes are made. An event of a version the
// manifest does not know (a runtime newer than it) is decoded with the
// newest template the manifest has for that event: the runtime only ever
// appends fields to a newer version, so those it knows are where they were.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "clr_event_table.h"
#include "manifest.h"
#include "reader/guid.h"

namespace dtrace::dnet {

// The runtime provider an event's GUID names, if any.
std::optional<ClrProvider> clr_provider_of(const etw::Guid &guid);

class ClrTemplates {
  public:
    ClrTemplates();

    // The fields of event `id` of `provider` at `version` (see above), or
    // nullptr for an event the manifest does not have. Valid as long as
    // this object.
    const std::vector<etw::plugin::ManifestField> *fields(ClrProvider provider, uint16_t id, uint8_t version) const;

  private:
    struct Layout {
        ClrProvider provider;
        uint16_t id;
        uint8_t version;
        std::vector<etw::plugin::ManifestField> fields;
    };
    std::vector<Layout> layouts_; // sorted by provider, id, version
};

} // namespace dtrace::dnet
