// extended_items_test.cpp: EVENT_HEADER extended data items.
#include <gtest/gtest.h>

#include "etl_file_builder.h"
#include "reader/event_header_record.h"
#include "reader/extended_items.h"
#include "sample_traces.h"
#include "test_support.h"

namespace dtrace::etw {
namespace {

using namespace fixture;
using test::OwnedEvent;

// Rebuilds an Event whose spans point into the owned copies.
Event view(const OwnedEvent &owned) {
    Event e = owned.event;
    e.extended = owned.extended;
    e.payload = owned.payload;
    return e;
}

const OwnedEvent *first_of(const std::vector<OwnedEvent> &events, RecordKind kind, uint8_t pointer_size) {
    for (const OwnedEvent &e : events) {
        if (e.event.kind == kind && e.event.pointer_size == pointer_size) {
            return &e;
        }
    }
    return nullptr;
}

TEST(ExtendedItems, EveryCommonItemIsDecoded) {
    std::vector<OwnedEvent> events = test::read_bytes(sample_every_kind());
    const OwnedEvent *rich = first_of(events, RecordKind::EventHeader, 8);
    ASSERT_NE(rich, nullptr);
    Event e = view(*rich);
    EXPECT_TRUE(e.flags & event_flag::kExtendedInfo);
    EXPECT_EQ(e.channel, 11); // TraceLogging
    uint32_t expected_types = 0;
    for (uint16_t t : {ext_type::kRelatedActivityId, ext_type::kSid, ext_type::kTsId, ext_type::kInstanceInfo,
                       ext_type::kStackTrace64, ext_type::kEventKey, ext_type::kProvTraits, ext_type::kEventSchemaTl}) {
        expected_types |= 1u << t;
    }
    EXPECT_EQ(e.extended_types, expected_types);

    size_t count = 0;
    for (ExtendedItem item : ExtendedItems(e)) {
        (void)item;
        ++count;
    }
    EXPECT_EQ(count, 8u);

    EXPECT_EQ(related_activity_id(*find_extended_item(e, ext_type::kRelatedActivityId)), kMessageGuid);
    EXPECT_EQ(find_extended_item(e, ext_type::kSid)->data.size(), 12u);
    EXPECT_EQ(terminal_session_id(*find_extended_item(e, ext_type::kTsId)), 1u);
    std::optional<InstanceInfo> info = instance_info(*find_extended_item(e, ext_type::kInstanceInfo));
    ASSERT_TRUE(info);
    EXPECT_EQ(info->instance_id, 7u);
    EXPECT_EQ(info->parent_instance_id, 3u);
    EXPECT_EQ(info->parent_guid, kMessageGuid);
    std::optional<StackTrace> stack = stack_trace(*find_extended_item(e, ext_type::kStackTrace64));
    ASSERT_TRUE(stack);
    EXPECT_EQ(stack->match_id, 0x55u);
    ASSERT_EQ(stack->depth(), 2u);
    EXPECT_EQ(stack->frame(0), 0x7ff612340000u);
    EXPECT_EQ(stack->frame(1), 0x7ff612340100u);
    EXPECT_EQ(extended_u64(*find_extended_item(e, ext_type::kEventKey)), 0xABCDEFu);
    EXPECT_EQ(provider_traits_name(*find_extended_item(e, ext_type::kProvTraits)), "solar_system");
    std::optional<ExtendedItem> schema = find_extended_item(e, ext_type::kEventSchemaTl);
    ASSERT_TRUE(schema);
    std::string_view schema_text(reinterpret_cast<const char *>(schema->data.data()), schema->data.size());
    EXPECT_NE(schema_text.find("PrimitiveTypesTest"), std::string_view::npos);
    EXPECT_FALSE(find_extended_item(e, ext_type::kPmcCounters));
    // The user data begins after the last item.
    EXPECT_EQ(std::string(rich->payload.begin(), rich->payload.end()), std::string("Mercury\0", 8));
}

TEST(ExtendedItems, A32BitStackHasFourByteFrames) {
    std::vector<OwnedEvent> events = test::read_bytes(sample_every_kind());
    const OwnedEvent *small = first_of(events, RecordKind::EventHeader, 4);
    ASSERT_NE(small, nullptr);
    Event e = view(*small);
    std::optional<StackTrace> stack = stack_trace(*find_extended_item(e, ext_type::kStackTrace32));
    ASSERT_TRUE(stack);
    EXPECT_EQ(stack->pointer_size, 4);
    EXPECT_EQ(stack->match_id, 9u);
    ASSERT_EQ(stack->depth(), 1u);
    EXPECT_EQ(stack->frame(0), 0x401000u);
}

TEST(ExtendedItems, DecodersRefuseShortData) {
    const uint8_t bytes[4] = {1, 2, 3, 4};
    ExtendedItem item{ext_type::kRelatedActivityId, std::span<const uint8_t>(bytes, 4)};
    EXPECT_FALSE(related_activity_id(item));
    EXPECT_FALSE(instance_info(item));
    EXPECT_FALSE(stack_trace(item)); // wrong type as well as short
    EXPECT_FALSE(extended_u64(item));
    EXPECT_TRUE(terminal_session_id(item));
    EXPECT_FALSE(terminal_session_id(ExtendedItem{ext_type::kTsId, std::span<const uint8_t>(bytes, 3)}));
    EXPECT_FALSE(provider_traits_name(item)); // no NUL
}

// A record whose item chain is damaged ends its buffer: the event before it
// is delivered, it and the one after are not.
void expect_damaged_chain(Bytes record) {
    EtlFileBuilder builder;
    BufferSpec buffer;
    buffer.cpu = 2;
    buffer.records = {sample_event(1, 1000, 1), record, sample_event(3, 3000, 3)};
    builder.add_buffer(buffer);
    Result<EtlReader> reader = test::open_bytes(builder.build());
    ASSERT_TRUE(reader);
    std::vector<OwnedEvent> events = test::read_all(reader.value());
    const ReaderStats &s = reader.value().stats();
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[1].event.id, 1);
    EXPECT_EQ(s.corrupt_buffers, 1u);
    ASSERT_EQ(s.problems.size(), 1u);
    EXPECT_NE(s.problems[0].message.find("malformed extended data item; rest of buffer skipped"), std::string::npos)
        << s.problems[0].message;
    // The record follows the first (0x50 header + 8 payload bytes) at +0x48.
    EXPECT_EQ(s.problems[0].file_offset, builder.buffer_offset(1) + 0x48 + 0x58);
}

TEST(ExtendedItems, AnItemLargerThanItsRecordIsDamage) {
    EventHeaderSpec spec;
    spec.timestamp = 2000;
    spec.items = {{ext_type::kTsId, Bytes(4, 0)}};
    Bytes record = encode(spec);
    put_at(record, event_header_layout::kHeaderSize + extended_item_layout::kSize, uint16_t{0x400});
    expect_damaged_chain(record);
}

TEST(ExtendedItems, AnItemSmallerThanItsDataIsDamage) {
    EventHeaderSpec spec;
    spec.timestamp = 2000;
    spec.items = {{ext_type::kTsId, Bytes(4, 0)}};
    Bytes record = encode(spec);
    put_at(record, event_header_layout::kHeaderSize + extended_item_layout::kDataSize, uint16_t{9});
    expect_damaged_chain(record);
}

TEST(ExtendedItems, ALinkageToAMissingItemIsDamage) {
    EventHeaderSpec spec;
    spec.timestamp = 2000;
    spec.items = {{ext_type::kTsId, Bytes(4, 0)}};
    Bytes record = encode(spec);
    put_at(record, event_header_layout::kHeaderSize + extended_item_layout::kLinkage,
           extended_item_layout::kLinkageMore);
    expect_damaged_chain(record);
}

TEST(ExtendedItems, TheFlagWithoutAnyItemIsDamage) {
    EventHeaderSpec spec;
    spec.timestamp = 2000;
    spec.flags = event_flag::kExtendedInfo;
    expect_damaged_chain(encode(spec));
}

} // namespace
} // namespace dtrace::etw
