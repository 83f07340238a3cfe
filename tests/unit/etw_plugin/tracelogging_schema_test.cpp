// tracelogging_schema_test.cpp: EVENT_SCHEMA_TL metadata into fields.
#include <gtest/gtest.h>

#include "byte_writer.h"
#include "tracelogging_schema.h"

namespace dtrace::etw::plugin {
namespace {

using fixture::Bytes;
using fixture::put;

void text(Bytes &b, std::string_view s) {
    b.insert(b.end(), s.begin(), s.end());
    b.push_back(0);
}

// u16 size over the whole metadata, then the body.
Bytes metadata(const Bytes &body) {
    Bytes m;
    put(m, static_cast<uint16_t>(sizeof(uint16_t) + body.size()));
    m.insert(m.end(), body.begin(), body.end());
    return m;
}

TEST(TraceLoggingSchema, NameTagsAndFieldsOfEveryShape) {
    Bytes body = {0x81, 0x02}; // two tag bytes
    text(body, "Ev");
    text(body, "plain");
    body.push_back(8); // UInt32
    text(body, "with_out");
    body.push_back(0x84); // UInt8 + OutType
    body.push_back(0x03); // Boolean
    text(body, "out_tags");
    body.push_back(0x82);                  // AnsiString + OutType
    body.insert(body.end(), {0x81, 0x01}); // OutType 0x01 with the chain bit, then one tag byte
    text(body, "fixed");
    body.push_back(0x20 | 6); // UInt16, constant count
    put(body, uint16_t{3});
    text(body, "var");
    body.push_back(0x40 | 7); // Int32, count in the payload
    text(body, "custom");
    body.push_back(0x60 | 14);
    put(body, uint16_t{2});
    body.insert(body.end(), {0xAA, 0xBB});
    text(body, "bin");
    body.push_back(14);
    Bytes m = metadata(body);
    EXPECT_EQ(tracelogging_event_name(m), std::optional<std::string_view>("Ev"));
    std::optional<TraceLoggingSchema> s = parse_tracelogging_schema(m);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->name, "Ev");
    ASSERT_EQ(s->fields.size(), 7u);
    EXPECT_EQ(s->fields[0].type, InType::UInt32);
    EXPECT_EQ(s->fields[1].type, InType::UInt8);
    EXPECT_EQ(s->fields[2].name, "out_tags");
    EXPECT_EQ(s->fields[2].type, InType::AnsiString);
    EXPECT_EQ(s->fields[3].name, "fixed");
    EXPECT_TRUE(s->fields[3].is_array);
    EXPECT_EQ(s->fields[3].count, 3u);
    EXPECT_TRUE(s->fields[4].count_in_data);
    EXPECT_TRUE(s->fields[5].opaque) << "a custom serializer's field";
    EXPECT_EQ(s->fields[6].type, InType::CountedBinary);
}

TEST(TraceLoggingSchema, StructsAndUnknownTypesAreOpaque) {
    Bytes body = {0};
    text(body, "Ev");
    text(body, "s");
    body.push_back(0x80 | 24); // Struct with OutType = member count
    body.push_back(1);
    text(body, "member");
    body.push_back(8);
    text(body, "odd");
    body.push_back(16); // no such TraceLogging type
    std::optional<TraceLoggingSchema> s = parse_tracelogging_schema(metadata(body));
    ASSERT_TRUE(s);
    ASSERT_EQ(s->fields.size(), 3u);
    EXPECT_TRUE(s->fields[0].opaque);
    EXPECT_TRUE(s->fields[2].opaque);
}

TEST(TraceLoggingSchema, MalformedMetadataIsRefused) {
    EXPECT_FALSE(parse_tracelogging_schema(Bytes{}));
    EXPECT_FALSE(parse_tracelogging_schema(Bytes{5, 0}));
    Bytes body = {0};
    text(body, "Ev");
    text(body, "cut");
    Bytes m = metadata(body); // the field has no type byte
    EXPECT_TRUE(tracelogging_event_name(m));
    EXPECT_FALSE(parse_tracelogging_schema(m));
    Bytes unterminated = {0, 'E', 'v'};
    EXPECT_FALSE(tracelogging_event_name(metadata(unterminated)));
    Bytes count_cut = {0};
    text(count_cut, "Ev");
    text(count_cut, "f");
    count_cut.push_back(0x20 | 6);
    count_cut.push_back(1); // half a count
    EXPECT_FALSE(parse_tracelogging_schema(metadata(count_cut)));
    // The size field bounds the metadata: bytes after it are not fields.
    Bytes bounded = metadata(Bytes{0, 'E', 'v', 0});
    bounded.insert(bounded.end(), {'x', 0, 8});
    std::optional<TraceLoggingSchema> s = parse_tracelogging_schema(bounded);
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->fields.empty());
}

} // namespace
} // namespace dtrace::etw::plugin
