// payload_decoder_test.cpp: payloads split into field values.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "byte_writer.h"
#include "payload_decoder.h"

namespace dtrace::etw::plugin {
namespace {

using fixture::Bytes;
using fixture::put;

ManifestField field(const char *name, InType type) {
    ManifestField f;
    f.name = name;
    f.type = type;
    return f;
}

std::string text_at(const DecodedPayload &d, size_t i) {
    EXPECT_TRUE(d.fields[i].by_address);
    return reinterpret_cast<const char *>(d.bytes.data() + d.fields[i].value);
}

void put_wide(Bytes &b, const std::u16string &s) {
    for (char16_t c : s) {
        put(b, static_cast<uint16_t>(c));
    }
    put(b, uint16_t{0});
}

TEST(PayloadDecoder, IntegersSignedAndUnsignedAndPointersByBitness) {
    Bytes p;
    put(p, int8_t{-2});
    put(p, uint16_t{0xBEEF});
    put(p, int32_t{-5});
    put(p, uint64_t{0x1122334455667788});
    put(p, uint32_t{0x401000}); // a 32-bit logger's pointer
    put(p, uint32_t{1});        // Boolean: 4 bytes
    const std::vector<ManifestField> fields = {field("a", InType::Int8),    field("b", InType::UInt16),
                                               field("c", InType::Int32),   field("d", InType::HexInt64),
                                               field("e", InType::Pointer), field("f", InType::Boolean)};
    DecodedPayload d;
    decode_payload(p, fields, 4, d);
    ASSERT_EQ(d.fields.size(), 6u);
    EXPECT_EQ(d.fields[0].value, static_cast<uint64_t>(int64_t{-2}));
    EXPECT_EQ(d.fields[1].value, 0xBEEFu);
    EXPECT_EQ(d.fields[2].value, static_cast<uint64_t>(int64_t{-5}));
    EXPECT_EQ(d.fields[3].value, 0x1122334455667788u);
    EXPECT_EQ(d.fields[4].value, 0x401000u);
    EXPECT_EQ(d.fields[5].value, 1u);
    for (const DecodedField &f : d.fields) {
        EXPECT_TRUE(f.present);
        EXPECT_FALSE(f.by_address);
    }
}

TEST(PayloadDecoder, StringsBecomeUtf8AndTheNextFieldFollowsThem) {
    Bytes p;
    put_wide(p, u"System.String");
    p.insert(p.end(), {'a', 'n', 's', 'i', 0});
    put(p, uint16_t{4}); // CountedString: 4 bytes
    put(p, uint16_t{'o'});
    put(p, uint16_t{'k'});
    put(p, uint32_t{42});
    const std::vector<ManifestField> fields = {field("w", InType::UnicodeString), field("a", InType::AnsiString),
                                               field("c", InType::CountedString), field("n", InType::UInt32)};
    DecodedPayload d;
    decode_payload(p, fields, 8, d);
    EXPECT_EQ(text_at(d, 0), "System.String");
    EXPECT_EQ(text_at(d, 1), "ansi");
    EXPECT_EQ(text_at(d, 2), "ok");
    EXPECT_EQ(d.fields[3].value, 42u);
}

TEST(PayloadDecoder, FixedLengthStringsAndBinaryAndGuids) {
    Bytes p;
    put(p, uint16_t{'a'});
    put(p, uint16_t{'b'}); // two code units, no NUL
    p.insert(p.end(), {1, 2, 3});
    Bytes guid(16);
    for (size_t i = 0; i < guid.size(); ++i) {
        guid[i] = static_cast<uint8_t>(i);
    }
    p.insert(p.end(), guid.begin(), guid.end());
    ManifestField w = field("w", InType::UnicodeString);
    w.length = 2;
    ManifestField bin = field("bin", InType::Binary);
    bin.length = 3;
    DecodedPayload d;
    decode_payload(p, std::vector<ManifestField>{w, bin, field("g", InType::Guid)}, 8, d);
    EXPECT_EQ(text_at(d, 0), "ab");
    ASSERT_TRUE(d.fields[1].by_address);
    EXPECT_EQ(Bytes(d.bytes.begin() + static_cast<std::ptrdiff_t>(d.fields[1].value),
                    d.bytes.begin() + static_cast<std::ptrdiff_t>(d.fields[1].value) + 3),
              (Bytes{1, 2, 3}));
    EXPECT_EQ(0, std::memcmp(d.bytes.data() + d.fields[2].value, guid.data(), guid.size()));
}

TEST(PayloadDecoder, ArraysCountedByAnEarlierFieldAndLengthsFromOne) {
    Bytes p;
    put(p, uint16_t{3});
    put(p, uint32_t{10});
    put(p, uint32_t{20});
    put(p, uint32_t{30});
    put(p, uint8_t{2});
    p.insert(p.end(), {0xAA, 0xBB});
    put(p, uint32_t{7});
    ManifestField values = field("values", InType::UInt32);
    values.is_array = true;
    values.count_field = 0;
    ManifestField blob = field("blob", InType::Binary);
    blob.length_field = 2;
    const std::vector<ManifestField> fields = {field("count", InType::UInt16), values, field("size", InType::UInt8),
                                               blob, field("after", InType::UInt32)};
    DecodedPayload d;
    decode_payload(p, fields, 8, d);
    ASSERT_TRUE(d.fields[1].by_address);
    uint32_t third = 0;
    std::memcpy(&third, d.bytes.data() + d.fields[1].value + 8, sizeof third);
    EXPECT_EQ(third, 30u);
    EXPECT_EQ(d.bytes[d.fields[3].value + 1], 0xBB);
    EXPECT_EQ(d.fields[4].value, 7u);
}

TEST(PayloadDecoder, StructsAreTheirBytesAndTheFieldsAfterThemFollow) {
    ManifestField items = field("Items", InType::Null);
    items.is_struct = true;
    items.is_array = true;
    items.count_field = 0;
    ManifestField name_length = field("Length", InType::UInt8);
    ManifestField name = field("Name", InType::AnsiString);
    name.length_field = 1; // a member naming an earlier member
    items.members = {field("Id", InType::UInt32), name_length, name};
    const std::vector<ManifestField> fields = {field("Count", InType::UInt16), items, field("After", InType::UInt32)};
    Bytes p;
    put(p, uint16_t{2});
    for (const char *item_name : {"ab", "xyz"}) {
        put(p, uint32_t{0x11111111});
        p.push_back(static_cast<uint8_t>(std::strlen(item_name)));
        p.insert(p.end(), item_name, item_name + std::strlen(item_name));
    }
    put(p, uint32_t{0xCAFE});
    DecodedPayload d;
    decode_payload(p, fields, 8, d);
    ASSERT_EQ(d.fields.size(), 3u);
    ASSERT_TRUE(d.fields[1].present);
    ASSERT_TRUE(d.fields[1].by_address);
    EXPECT_EQ(std::memcmp(d.bytes.data() + d.fields[1].value, p.data() + 2, 4 + 1 + 2 + 4 + 1 + 3), 0);
    ASSERT_TRUE(d.fields[2].present);
    EXPECT_EQ(d.fields[2].value, 0xCAFEu);
    EXPECT_EQ(field_d_type(fields[1]), std::optional<std::string_view>("uintptr_t"));
}

TEST(PayloadDecoder, MappedValuesAreTheirNames) {
    auto map = std::make_shared<ManifestMap>();
    map->entries = {{0, "SmallObjectHeap"}, {1, "LargeObjectHeap"}};
    ManifestField type = field("Type", InType::UInt32);
    type.map = map;
    Bytes p;
    put(p, uint32_t{1});
    put(p, uint32_t{9});
    DecodedPayload d;
    decode_payload(p, std::vector<ManifestField>{type, type}, 8, d);
    EXPECT_EQ(text_at(d, 0), "LargeObjectHeap");
    EXPECT_EQ(text_at(d, 1), "9");
    EXPECT_EQ(field_d_type(type), std::optional<std::string_view>("uintptr_t"));
    EXPECT_EQ(field_d_type(field("n", InType::Int16)), std::optional<std::string_view>("int16_t"));
    ManifestField unknown = field("u", InType::UInt32);
    unknown.opaque = true;
    EXPECT_FALSE(field_d_type(unknown));
}

TEST(PayloadDecoder, AShortPayloadOrAnOpaqueFieldLeavesTheRestAbsent) {
    Bytes p;
    put(p, uint32_t{1});
    put(p, uint16_t{2}); // the UInt32 after it needs 4 bytes
    const std::vector<ManifestField> fields = {field("a", InType::UInt32), field("b", InType::UInt32),
                                               field("c", InType::UInt16)};
    DecodedPayload d;
    decode_payload(p, fields, 8, d);
    ASSERT_EQ(d.fields.size(), 3u);
    EXPECT_TRUE(d.fields[0].present);
    EXPECT_FALSE(d.fields[1].present);
    EXPECT_FALSE(d.fields[2].present) << "fields after a missing one cannot be located";
    EXPECT_EQ(d.fields[2].value, 0u);

    ManifestField opaque = field("s", InType::UInt32);
    opaque.opaque = true;
    decode_payload(p, std::vector<ManifestField>{field("a", InType::UInt32), opaque, field("c", InType::UInt16)}, 8, d);
    EXPECT_TRUE(d.fields[0].present);
    EXPECT_FALSE(d.fields[1].present);
    EXPECT_FALSE(d.fields[2].present);
}

TEST(PayloadDecoder, HugeCountsAndUnterminatedStringsStayInsideThePayload) {
    Bytes p;
    put(p, uint32_t{0xFFFFFFFF});
    put(p, uint16_t{'x'}); // no NUL
    ManifestField values = field("values", InType::UInt64);
    values.is_array = true;
    values.count_field = 0;
    DecodedPayload d;
    decode_payload(p, std::vector<ManifestField>{field("n", InType::UInt32), values}, 8, d);
    EXPECT_FALSE(d.fields[1].present);
    decode_payload(p, std::vector<ManifestField>{field("n", InType::UInt32), field("s", InType::UnicodeString)}, 8, d);
    EXPECT_EQ(text_at(d, 1), "x");
    ManifestField empties = field("e", InType::Binary);
    empties.is_array = true;
    empties.count_field = 0; // 4 billion empty elements
    decode_payload(p, std::vector<ManifestField>{field("n", InType::UInt32), empties}, 8, d);
    EXPECT_TRUE(d.fields[1].present);
}

} // namespace
} // namespace dtrace::etw::plugin
