// manifest_set.h: the manifests the user registered, indexed for replay.
//
// `-x etwmanifest=PATH` names a manifest file or a directory of them (every
// *.man and *.xml file in it, in name order); several paths are separated
// by ':' or given on separate lines. Every later lookup is by provider GUID
// or by (GUID, event id, version), so the set indexes them once. A
// provider described twice keeps its first description.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "manifest.h"
#include "reader/result.h"

namespace dtrace::etw::plugin {

// The -x option naming manifests.
inline constexpr const char *kManifestOption = "etwmanifest";

class ManifestSet {
  public:
    // Loads every manifest the option value names; the error names the file.
    static Result<ManifestSet> load(std::string_view option_value);
    void add(std::vector<ManifestProvider> providers);

    const std::vector<ManifestProvider> &providers() const { return providers_; }
    const ManifestProvider *provider(const Guid &guid) const;
    // The event's description for this version; without one, the latest
    // version the manifest has (later versions append fields).
    const ManifestEvent *event(const Guid &guid, uint16_t id, uint8_t version) const;
    // The latest version of an event id.
    const ManifestEvent *latest(const Guid &guid, uint16_t id) const;

  private:
    using EventKey = std::tuple<Guid, uint16_t, uint8_t>;

    std::vector<ManifestProvider> providers_;
    std::unordered_map<Guid, size_t, GuidHash> by_guid_;
    std::map<EventKey, const ManifestEvent *> events_;
};

} // namespace dtrace::etw::plugin
