// trace_metadata_test.cpp: the decoding metadata a trace carries, read into
// manifests and used by the catalog.
#include <gtest/gtest.h>

#include "metadata_trace.h"
#include "reader/byte_source.h"
#include "trace_catalog.h"
#include "trace_metadata.h"

namespace dtrace::etw::plugin {
namespace {

const ManifestProvider *find(const std::vector<ManifestProvider> &providers, const Guid &guid) {
    for (const ManifestProvider &p : providers) {
        if (p.guid == guid) {
            return &p;
        }
    }
    return nullptr;
}

std::vector<ManifestProvider> metadata_of(fixture::Bytes bytes, std::vector<std::string> *problems = nullptr) {
    Result<EtlReader> reader = EtlReader::open_source(make_memory_source(std::move(bytes)), "metadata.etl");
    EXPECT_TRUE(reader) << reader.error();
    TraceMetadata metadata;
    Event event;
    while (reader.value().next(event)) {
        metadata.note(event);
    }
    if (problems != nullptr) {
        *problems = metadata.problems();
    }
    return metadata.take();
}

TEST(TraceMetadata, TraceEventInfoDescribesFieldsStructsAndMaps) {
    const std::vector<ManifestProvider> providers = metadata_of(fixture::metadata_trace());
    const ManifestProvider *p = find(providers, fixture::kDescribedProvider);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->name, "Fixture-Described");
    ASSERT_EQ(p->events.size(), 1u);
    const ManifestEvent &e = p->events[0];
    EXPECT_EQ(e.id, 7);
    EXPECT_EQ(e.version, 1);
    EXPECT_EQ(e.name, "Drawn");
    EXPECT_EQ(e.keywords, 0x10u);
    ASSERT_EQ(e.fields.size(), 7u);
    EXPECT_EQ(e.fields[0].name, "Count");
    EXPECT_EQ(e.fields[0].type, InType::UInt32);
    const ManifestField &points = e.fields[1];
    EXPECT_TRUE(points.is_struct);
    EXPECT_TRUE(points.is_array);
    EXPECT_EQ(points.count_field, std::optional<size_t>(0));
    ASSERT_EQ(points.members.size(), 2u);
    EXPECT_EQ(points.members[1].name, "Y");
    EXPECT_EQ(points.members[1].type, InType::Int16);
    ASSERT_TRUE(e.fields[2].map);
    EXPECT_EQ(map_value_name(*e.fields[2].map, 2), "Square") << "padding trimmed";
    ASSERT_TRUE(e.fields[3].map);
    EXPECT_TRUE(e.fields[3].map->is_bitmap);
    EXPECT_EQ(map_value_name(*e.fields[3].map, 5), "Bold|0x4");
    EXPECT_TRUE(e.fields[5].opaque) << "an InType TDH does not have";
    EXPECT_FALSE(e.fields[6].opaque);
}

TEST(TraceMetadata, EventSourceManifestChunksMakeAManifest) {
    const std::vector<ManifestProvider> providers = metadata_of(fixture::metadata_trace());
    const ManifestProvider *p = find(providers, fixture::kEventSourceProvider);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->name, "Fixture.Source");
    ASSERT_EQ(p->events.size(), 1u);
    ASSERT_EQ(p->events[0].fields.size(), 2u);
    ASSERT_TRUE(p->events[0].fields[1].map);
    EXPECT_EQ(map_value_name(*p->events[0].fields[1].map, 3), "Warning");
}

TEST(TraceMetadata, TheCatalogTakesTheTracesMetadataAfterRegisteredManifests) {
    Result<EtlReader> reader = EtlReader::open_source(make_memory_source(fixture::metadata_trace()), "metadata.etl");
    ASSERT_TRUE(reader) << reader.error();
    ManifestSet manifests;
    const TraceCatalog catalog = TraceCatalog::scan(reader.value(), manifests);
    EXPECT_TRUE(catalog.metadata_problems().empty());
    const size_t described = catalog.index_of(fixture::kDescribedProvider);
    ASSERT_NE(described, TraceCatalog::kNotFound);
    EXPECT_EQ(catalog.providers()[described].name, "Fixture-Described");
    ASSERT_NE(catalog.providers()[described].manifest, nullptr);
    EXPECT_NE(manifests.event(fixture::kDescribedProvider, 7, 1), nullptr);
    const size_t source = catalog.index_of(fixture::kEventSourceProvider);
    ASSERT_NE(source, TraceCatalog::kNotFound);
    EXPECT_EQ(catalog.providers()[source].name, "Fixture.Source");
}

TEST(TraceMetadata, DamagedRecordsAreReportedAndLeftOut) {
    Event info;
    info.kind = RecordKind::Classic;
    info.provider = kKernelTraceControlMetaData;
    info.opcode = kEventInfoOpcode;
    info.buffer_offset = 0x2000;
    const std::vector<uint8_t> short_info(40, 0);
    info.payload = short_info;
    std::vector<uint8_t> chunk = {1, 1, 0, 0x5B, 2, 0, 5, 0, '<'}; // chunk 5 of 2
    Event manifest;
    manifest.kind = RecordKind::EventHeader;
    manifest.id = kEventSourceManifestId;
    manifest.payload = chunk;
    TraceMetadata metadata;
    metadata.note(info);
    metadata.note(manifest);
    ASSERT_EQ(metadata.problems().size(), 2u);
    EXPECT_EQ(metadata.problems()[0],
              "metadata record in the buffer at offset 0x2000: a TRACE_EVENT_INFO of 40 bytes is too short");
    EXPECT_NE(metadata.problems()[1].find("chunk 5 of 2"), std::string::npos) << metadata.problems()[1];
    EXPECT_TRUE(metadata.take().empty());
}

} // namespace
} // namespace dtrace::etw::plugin
