// trace_catalog_test.cpp: the init pass's providers, names and event ids.
#include <gtest/gtest.h>

#include "reader/byte_source.h"
#include "replay_traces.h"
#include "sample_traces.h"
#include "trace_catalog.h"

namespace dtrace::etw::plugin {
namespace {

TraceCatalog catalog_of(fixture::Bytes bytes) {
    Result<EtlReader> reader = EtlReader::open_source(make_memory_source(std::move(bytes)), "test.etl");
    EXPECT_TRUE(reader) << reader.error();
    ManifestSet manifests; // the fixtures carry no metadata: the catalog keeps no pointer into it
    return TraceCatalog::scan(reader.value(), manifests);
}

std::vector<std::string> labels(const TraceCatalog &c) {
    std::vector<std::string> out;
    for (const CatalogProvider &p : c.providers()) {
        out.push_back(p.label());
    }
    return out;
}

TEST(TraceCatalog, ProvidersInOrderOfFirstAppearanceWithTheirNames) {
    TraceCatalog c = catalog_of(fixture::replay_trace());
    EXPECT_EQ(c.events(), fixture::kReplayRecords);
    EXPECT_EQ(labels(c), (std::vector<std::string>{"EventTrace", "Process", "Thread", "Microsoft-Windows-DotNETRuntime",
                                                   "KernelTraceControl-ImageID", "Fixture.Provider", "PerfInfo",
                                                   "StackWalk", "RT_LostEvent"}));
}

TEST(TraceCatalog, EventIdsAndCountsPerProvider) {
    TraceCatalog c = catalog_of(fixture::replay_trace());
    const size_t clr = c.index_of(fixture::kDotNetRuntime);
    ASSERT_NE(clr, TraceCatalog::kNotFound);
    const CatalogProvider &p = c.providers()[clr];
    EXPECT_EQ(p.guid_text, "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
    EXPECT_EQ(p.event_ids, (std::set<uint16_t>{1, 2, 3, 4, 10}));
    EXPECT_EQ(p.events, 6u);
    EXPECT_EQ(c.providers()[c.index_of(fixture::kFixtureProvider)].event_ids, std::set<uint16_t>{0});
    EXPECT_EQ(c.index_of(*Guid::parse("00000000-0000-0000-0000-000000000001")), TraceCatalog::kNotFound);
}

TEST(TraceCatalog, AProviderNothingNamesIsKnownByItsGuid) {
    TraceCatalog c = catalog_of(fixture::sample_every_kind());
    const size_t wpp = c.index_of(fixture::kMessageGuid);
    ASSERT_NE(wpp, TraceCatalog::kNotFound);
    EXPECT_TRUE(c.providers()[wpp].name.empty());
    EXPECT_EQ(c.providers()[wpp].label(), "11111111-2222-3333-4444-555555555555");
    EXPECT_EQ(c.events(), fixture::kEveryKindRecords);
}

} // namespace
} // namespace dtrace::etw::plugin
