// xpress_test.cpp: the MS-XCA plain LZ77 decoder.
//
// Hand-written streams check the decoder against the format description
// itself (not against our encoder); round trips through the fixture encoder
// cover every length form; damaged streams must fail with the right status
// and without touching memory outside the spans (run under ASan by the fuzz
// build).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "reader/xpress.h"
#include "xpress_encoder.h"

namespace dtrace::etw {
namespace {

using fixture::Bytes;

Bytes decode(const Bytes &in, size_t out_size, XpressStatus expected = XpressStatus::Ok) {
    Bytes out(out_size, 0xEE);
    XpressResult r = xpress_decompress(in, out);
    EXPECT_EQ(r.status, expected) << describe(r.status);
    return out;
}

TEST(Xpress, DecodesLiteralsAndAnOverlappingMatch) {
    // Flags: three literals, one match, the unused bits set.
    Bytes in = {0xFF, 0xFF, 0xFF, 0x1F, 'a', 'b', 'c', 0x13, 0x00}; // match: offset 3, length 6
    Bytes out = decode(in, 9);
    EXPECT_EQ(std::string(out.begin(), out.end()), "abcabcabc");
}

TEST(Xpress, SharesOneHalfByteBetweenTwoLengthEscapes) {
    // 'x', then offset-1 matches of length 10 (nibble 0) and 25 (nibble 15 +
    // byte 0); both nibbles live in the byte after the first match word.
    Bytes in = {0xFF, 0xFF, 0xFF, 0x7F, 'x', 0x07, 0x00, 0xF0, 0x07, 0x00, 0x00};
    Bytes out = decode(in, 36);
    EXPECT_EQ(out, Bytes(36, 'x'));
}

TEST(Xpress, ReadsSixteenAndThirtyTwoBitLengths) {
    // 'z' then a match of 300 (u16 form: 297) and one of 70000 (u32 form).
    Bytes in = {0xFF, 0xFF, 0xFF, 0x7F, 'z',  0x07, 0x00, 0xFF, 0xFF, 0x29,
                0x01, 0x07, 0x00, 0xFF, 0x00, 0x00, 0x6D, 0x11, 0x01, 0x00};
    Bytes out = decode(in, 1 + 300 + 70000);
    EXPECT_EQ(out, Bytes(1 + 300 + 70000, 'z'));
}

TEST(Xpress, RoundTripsEveryLengthForm) {
    Bytes data;
    std::mt19937 rng(7);
    for (size_t run : {0u, 3u, 9u, 10u, 24u, 25u, 276u, 277u, 300u, 65537u, 70000u}) {
        for (int i = 0; i < 40; ++i) {
            data.push_back(static_cast<uint8_t>(rng()));
        }
        data.insert(data.end(), run, static_cast<uint8_t>(run));
    }
    Bytes packed = fixture::xpress_compress(data);
    EXPECT_LT(packed.size(), data.size() / 50);
    EXPECT_EQ(decode(packed, data.size()), data);
}

TEST(Xpress, RoundTripsIncompressibleData) {
    Bytes data(5000);
    std::mt19937 rng(11);
    for (auto &b : data) {
        b = static_cast<uint8_t>(rng());
    }
    EXPECT_EQ(decode(fixture::xpress_compress(data), data.size()), data);
}

TEST(Xpress, RefusesAMatchBeforeTheStart) {
    Bytes in = {0xFF, 0xFF, 0xFF, 0xFF, 0x10, 0x00}; // match with offset 3 at position 0
    decode(in, 6, XpressStatus::OffsetBeforeStart);
}

TEST(Xpress, RefusesAMatchPastTheEndOfTheOutput) {
    Bytes in = {0xFF, 0xFF, 0xFF, 0x1F, 'a', 'b', 'c', 0x13, 0x00};
    decode(in, 7, XpressStatus::OutputOverrun);
}

TEST(Xpress, ReportsInputThatEndsEarly) {
    Bytes in = {0x00, 0x00, 0x00, 0x00, 'a', 'b'};
    Bytes out(3);
    XpressResult r = xpress_decompress(in, out);
    EXPECT_EQ(r.status, XpressStatus::InputEndsEarly);
    EXPECT_EQ(r.input_position, in.size());
    decode({0x00, 0x00}, 1, XpressStatus::InputEndsEarly);                               // no whole flag word
    decode({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07}, 12, XpressStatus::InputEndsEarly);       // half a match word
    decode({0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00}, 12, XpressStatus::InputEndsEarly); // no nibble
}

TEST(Xpress, RefusesAWideLengthBelowItsMinimum) {
    Bytes in = {0xFF, 0xFF, 0xFF, 0x7F, 'a', 0x07, 0x00, 0x0F, 0xFF, 0x05, 0x00};
    decode(in, 100, XpressStatus::BadLength);
}

TEST(Xpress, RandomInputNeverEscapesItsSpans) {
    std::mt19937 rng(3);
    for (int round = 0; round < 3000; ++round) {
        Bytes in(rng() % 64);
        for (auto &b : in) {
            b = static_cast<uint8_t>(rng() % 4 == 0 ? 0xFF : rng());
        }
        Bytes out(rng() % 512);
        XpressResult r = xpress_decompress(in, out);
        EXPECT_LE(r.input_position, in.size());
    }
}

} // namespace
} // namespace dtrace::etw
