// sample_streams_test.cpp: the reader over the fixture streams, in every encoding.
//
// The same content (sample_streams.h) in V4, V5 and V6, with and without
// header compression: the count equals the independent walker's, events
// come in timestamp order across threads and regions, and each carries
// what its metadata row, thread, stack and the Trace block say.
#include <gtest/gtest.h>

#include "independent_walker.h"
#include "nettrace/provider_guid.h"
#include "reader/extended_items.h"
#include "sample_streams.h"
#include "test_support.h"

namespace dtrace::etw::nettrace {
namespace {

using namespace fixture;

struct Encoding {
    uint32_t version;
    bool compressed;
};

class SampleStreams : public ::testing::TestWithParam<Encoding> {};

TEST_P(SampleStreams, EveryEventInTimeOrderWithItsContext) {
    const Bytes stream = sample_stream(GetParam().version, GetParam().compressed);
    std::optional<test::WalkCounts> walked = test::walk_nettrace(stream);
    ASSERT_TRUE(walked.has_value());
    EXPECT_EQ(walked->events, kSampleEvents);

    auto opened = test::open_bytes(stream);
    ASSERT_TRUE(opened.ok()) << opened.error();
    NetTraceReader &reader = *opened.value();
    EXPECT_EQ(reader.format_version(), GetParam().version >= 6 ? 6u : 4u);
    const std::vector<test::ReadEvent> events = test::read_all(reader);
    ASSERT_EQ(events.size(), kSampleEvents);
    EXPECT_EQ(reader.stats().problem_count, 0u);

    const std::vector<int64_t> times = {2000, 2200, 2500, 3000, 5000, 6500, 7000, 8000, 9000};
    const std::vector<uint16_t> ids = {1, 10, 10, 1, 2, 10, 80, 1, 1};
    const std::vector<uint32_t> tids = {101, 102, 101, 102, 101, 102, 101, 102, 101};
    const Guid runtime = *Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
    for (size_t i = 0; i < events.size(); ++i) {
        const Event &e = events[i].event;
        SCOPED_TRACE(i);
        EXPECT_EQ(e.timestamp, times[i]);
        EXPECT_EQ(e.time_ns, kSampleSyncUnixNs + times[i] - 1000);
        EXPECT_EQ(e.id, ids[i]);
        EXPECT_EQ(e.tid, tids[i]);
        EXPECT_EQ(e.pid, kSamplePid);
        EXPECT_EQ(e.cpu, tids[i] == kSampleThreadA ? 0 : 1);
        EXPECT_EQ(e.kind, RecordKind::EventHeader);
        EXPECT_EQ(e.pointer_size, 8);
        const bool checkout = i == 3 || i == 7;
        EXPECT_EQ(e.provider, checkout ? eventsource_guid(kSampleEventSource) : runtime);
        std::optional<ExtendedItem> traits = find_extended_item(e, ext_type::kProvTraits);
        ASSERT_TRUE(traits.has_value());
        EXPECT_EQ(provider_traits_name(*traits).value_or(""),
                  checkout ? kSampleEventSource : "Microsoft-Windows-DotNETRuntime");
        EXPECT_EQ(find_extended_item(e, ext_type::kEventSchemaTl).has_value(), checkout);
    }
    // GCStart v2 at level 4 with keyword GC; its stack from the stack block.
    EXPECT_EQ(events[0].event.version, 2);
    EXPECT_EQ(events[0].event.keyword, 0x1u);
    EXPECT_EQ(events[0].event.level, 4);
    EXPECT_EQ(events[0].payload.size(), 26u);
    std::optional<ExtendedItem> item = find_extended_item(events[0].event, ext_type::kStackTrace64);
    ASSERT_TRUE(item.has_value());
    std::optional<StackTrace> stack = stack_trace(*item);
    ASSERT_TRUE(stack.has_value());
    ASSERT_EQ(stack->depth(), 2u);
    EXPECT_EQ(stack->frame(0), 0x7ff000001234u);
    EXPECT_EQ(stack->frame(1), 0x7ff000005678u);
    EXPECT_FALSE(find_extended_item(events[2].event, ext_type::kStackTrace64).has_value());
}

INSTANTIATE_TEST_SUITE_P(Encodings, SampleStreams,
                         ::testing::Values(Encoding{4, true}, Encoding{4, false}, Encoding{5, true}, Encoding{5, false},
                                           Encoding{6, true}, Encoding{6, false}));

TEST(EventSourceGuid, MatchesDotNetsDerivation) {
    // System.Runtime's EventSource GUID, as .NET documents it for dotnet-counters.
    EXPECT_EQ(eventsource_guid("System.Runtime").to_string(), "49592c0f-5a05-516d-aa4b-a64e02026c89");
    EXPECT_EQ(provider_guid_of("Microsoft-Windows-DotNETRuntimeRundown").to_string(),
              "a669021c-c450-4609-a035-5af59af4df18");
}

TEST(Sha1, KnownDigest) {
    const std::string abc = "abc";
    const auto digest = sha1(std::span(reinterpret_cast<const uint8_t *>(abc.data()), abc.size()));
    EXPECT_EQ(digest[0], 0xA9);
    EXPECT_EQ(digest[1], 0x99);
    EXPECT_EQ(digest[19], 0x9D);
}

} // namespace
} // namespace dtrace::etw::nettrace
