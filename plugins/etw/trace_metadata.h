// trace_metadata.h: the decoding metadata a trace carries for its providers.
//
// Without a registered manifest (-x etwmanifest), two kinds of records in a
// trace can still describe its events' fields (etw-formats.md 1.8, 5.1):
//
// - Merged files (xperf -merge, WPR, PerfView) carry, as classic events of
//   KernelTraceControl/MetaData (bbccf6c1-6cd1-48c4-80ff-839482e37671),
//   opcode 32 EventInfo: a serialized TRACE_EVENT_INFO (tdh.h) per manifest
//   event seen, and opcode 33 EventMapInfo: the provider's GUID and an
//   EVENT_MAP_INFO, a value map or bitmap its fields name.
// - .NET EventSources log their manifest as their event 0xFFFE: an 8-byte
//   envelope (format 1, major, minor, magic 0x5B, u16 chunk count, u16
//   chunk number) before each chunk of the manifest's XML.
//
// The init pass (trace_catalog.h) hands every event to note(); take() then
// returns the providers described, as a manifest would, for ManifestSet
// (registered manifests keep precedence). Only manifest-based events
// (DecodingSource 0) are taken from TRACE_EVENT_INFO; kernel MOF classes
// have their own table. What cannot be used is reported in problems().
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "manifest.h"
#include "reader/event.h"

namespace dtrace::etw::plugin {

// The provider of the EventInfo and EventMapInfo records.
extern const Guid kKernelTraceControlMetaData;
inline constexpr uint8_t kEventInfoOpcode = 32;
inline constexpr uint8_t kEventMapInfoOpcode = 33;
// The event id of an EventSource's manifest.
inline constexpr uint16_t kEventSourceManifestId = 0xFFFE;

class TraceMetadata {
  public:
    // Takes what the event says about its provider's events, if anything.
    void note(const Event &event);
    // The providers described (the events' fields, with their maps).
    std::vector<ManifestProvider> take();
    // Records that could not be used, one message each.
    const std::vector<std::string> &problems() const { return problems_; }

  private:
    struct ManifestChunks {
        std::vector<std::string> chunks;
        size_t received = 0;
        bool parsed = false;
    };

    void note_event_info(const Event &event);
    void note_map_info(const Event &event);
    void note_manifest_chunk(const Event &event);
    std::shared_ptr<ManifestMap> map(const Guid &provider, const std::string &name);
    void problem(const Event &event, const std::string &what);

    std::map<Guid, ManifestProvider> described_; // from TRACE_EVENT_INFO
    std::map<std::pair<Guid, std::string>, std::shared_ptr<ManifestMap>> maps_;
    std::map<std::pair<Guid, std::string>, bool> map_described_;
    std::map<Guid, ManifestChunks> manifests_; // EventSource manifests, by provider
    std::vector<ManifestProvider> parsed_;     // from them
    std::vector<std::string> problems_;
};

} // namespace dtrace::etw::plugin
