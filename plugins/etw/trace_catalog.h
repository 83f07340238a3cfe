// trace_catalog.h: the providers and events present in a trace.
//
// Probes must exist before a script is matched against them, and `dtrace -l
// -E file` lists what the file holds, so init() reads the whole file once
// (streaming: the reader holds one buffer per CPU) and notes each provider
// in the order it first appears, with its name, the event ids it logs and
// the names (and schemas) of its TraceLogging events.
// The decoding metadata the file carries (trace_metadata.h) joins the
// manifests, after the registered ones, as if it had been registered.
// Providers of registered manifests that the file does not hold follow, so
// that their probes are listed too (issue 5: "the providers and events
// present in the file and in registered manifests").
// The catalog is immutable afterwards: the replay thread reads it without
// locks, and the provider names it keeps are the strings diag:::events
// hands to D (their addresses stay put).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "manifest_set.h"
#include "reader/etl_reader.h"
#include "reader/guid.h"

namespace dtrace::etw::plugin {

struct CatalogProvider {
    Guid guid;
    std::string guid_text; // lower case, as in etw probe modules
    std::string name;      // empty when nothing names the provider
    const ManifestProvider *manifest = nullptr;
    std::set<uint16_t> event_ids; // in the file or the manifest
    // TraceLogging events by name, with the fields of the first one met.
    std::map<std::string, std::vector<ManifestField>, std::less<>> tracelogging_events;
    uint64_t events = 0;

    // What diag:::events reports as the provider: its name, else its GUID.
    const std::string &label() const { return name.empty() ? guid_text : name; }
};

class TraceCatalog {
  public:
    static constexpr size_t kNotFound = SIZE_MAX;

    // Reads every remaining event of the reader and adds the metadata the
    // file carries to the manifests, which name providers and add theirs.
    static TraceCatalog scan(EtlReader &reader, ManifestSet &manifests);

    const std::vector<CatalogProvider> &providers() const { return providers_; }
    size_t index_of(const Guid &guid) const;
    // What a catalog would call the provider of an event that it does not
    // hold: its name as the manifests, the known names or the event give
    // it, else its GUID.
    static std::string label_of(const Event &event, const ManifestSet &manifests);
    uint64_t events() const { return events_; }
    // Metadata records of the file that could not be used (trace_metadata.h).
    const std::vector<std::string> &metadata_problems() const { return metadata_problems_; }

  private:
    CatalogProvider &provider(const Guid &guid, const ManifestSet &manifests);
    void note(const Event &event, const ManifestSet &manifests);
    // Points a provider at its manifest (again, when the set changed).
    static void link(CatalogProvider &provider, const ManifestSet &manifests);

    std::vector<CatalogProvider> providers_;
    std::unordered_map<Guid, size_t, GuidHash> by_guid_;
    uint64_t events_ = 0;
    std::vector<std::string> metadata_problems_;
};

} // namespace dtrace::etw::plugin
