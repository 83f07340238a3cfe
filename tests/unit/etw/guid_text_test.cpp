// guid_text_test.cpp: GUID byte layout and text form; UTF-16 strings.
#include <gtest/gtest.h>

#include <cstring>
#include <unordered_set>

#include "byte_writer.h"
#include "reader/guid.h"
#include "reader/utf16.h"

namespace dtrace::etw {
namespace {

TEST(Guid, ReadsTheWindowsByteLayout) {
    // DotNETRuntime's provider GUID as it appears in an EVENT_HEADER.
    const uint8_t bytes[16] = {0x23, 0x0d, 0x3c, 0xe1, 0xbc, 0xcc, 0x12, 0x4e,
                               0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4};
    Guid g = Guid::from_bytes(bytes);
    EXPECT_EQ(g.to_string(), "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
    uint8_t back[16];
    g.to_bytes(back);
    EXPECT_EQ(0, std::memcmp(back, bytes, sizeof bytes));
}

TEST(Guid, ParsesTextWithOrWithoutBracesInAnyCase) {
    auto a = Guid::parse("{E13C0D23-CCBC-4E12-931B-D9CC2EEE27E4}");
    auto b = Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
    ASSERT_TRUE(a && b);
    EXPECT_EQ(*a, *b);
    EXPECT_EQ(a->data1, 0xe13c0d23u);
    EXPECT_FALSE(Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e"));
    EXPECT_FALSE(Guid::parse("e13c0d23xccbc-4e12-931b-d9cc2eee27e4"));
    EXPECT_FALSE(Guid::parse("g13c0d23-ccbc-4e12-931b-d9cc2eee27e4"));
    EXPECT_TRUE(Guid{}.is_zero());
    EXPECT_FALSE(a->is_zero());
}

TEST(Guid, HashesForUnorderedContainers) {
    std::unordered_set<Guid, GuidHash> set;
    set.insert(*Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"));
    set.insert(*Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e5")); // differs in the last byte
    set.insert(*Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"));
    EXPECT_EQ(set.size(), 2u);
    EXPECT_NE(GuidHash{}(*Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4")),
              GuidHash{}(*Guid::parse("e13c0d23-ccbc-4e12-931b-d9cc2eee27e5")));
}

TEST(Utf16, DecodesToUtf8AndStopsAtNul) {
    fixture::Bytes b;
    for (char16_t c : std::u16string(u"C:\\Tr\u00e9ce\u20ac")) {
        fixture::put(b, static_cast<uint16_t>(c));
    }
    fixture::put(b, uint16_t{0xD83D}); // U+1F600 as a surrogate pair
    fixture::put(b, uint16_t{0xDE00});
    fixture::put(b, uint16_t{0});
    fixture::put(b, uint16_t{'x'});
    Utf16String s = read_utf16z(b);
    EXPECT_EQ(s.utf8, "C:\\Tr\xC3\xA9"
                      "ce\xE2\x82\xAC\xF0\x9F\x98\x80");
    EXPECT_TRUE(s.terminated);
    EXPECT_EQ(s.bytes, b.size() - 2);
}

TEST(Utf16, ReplacesUnpairedSurrogatesAndToleratesAMissingNul) {
    fixture::Bytes b;
    fixture::put(b, uint16_t{0xDC00});
    fixture::put(b, uint16_t{'a'});
    fixture::put(b, uint16_t{0xD800});
    b.push_back(0x41); // odd trailing byte
    Utf16String s = read_utf16z(b);
    EXPECT_EQ(s.utf8, "\xEF\xBF\xBD"
                      "a\xEF\xBF\xBD");
    EXPECT_FALSE(s.terminated);
}

} // namespace
} // namespace dtrace::etw
