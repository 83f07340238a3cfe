// lltostr(), strtoll(), byte order conversions and rand().
#include "dif_test_util.h"

#include <gtest/gtest.h>

namespace dtrace::dif {
namespace {

using test::call_text;
using test::I;
using test::Runner;
using test::S;

std::string lltostr(std::vector<test::Arg> args) {
    Runner r;
    uint64_t a = r.run(call_text("lltostr", args));
    EXPECT_EQ(r.fault.kind, FaultKind::None);
    return a ? r.string_at(a) : "<fault>";
}

int64_t strtoll(std::vector<test::Arg> args) {
    Runner r;
    uint64_t v = r.run(call_text("strtoll", args));
    EXPECT_EQ(r.fault.kind, FaultKind::None);
    return static_cast<int64_t>(v);
}

uint64_t call(std::string_view name, uint64_t v) {
    Runner r;
    return r.run(call_text(name, {I(v)}));
}

TEST(ConvertSubr, Lltostr) {
    EXPECT_EQ(lltostr({I(0)}), "0");
    EXPECT_EQ(lltostr({I(1234)}), "1234");
    EXPECT_EQ(lltostr({I(uint64_t(-42))}), "-42");
    EXPECT_EQ(lltostr({I(uint64_t(INT64_MIN))}), "-9223372036854775808");
}

TEST(ConvertSubr, LltostrBases) {
    EXPECT_EQ(lltostr({I(255), I(16)}), "0xff");
    EXPECT_EQ(lltostr({I(0), I(16)}), "0x0");
    EXPECT_EQ(lltostr({I(uint64_t(-1)), I(16)}), "0xffffffffffffffff");
    EXPECT_EQ(lltostr({I(8), I(8)}), "010");
    EXPECT_EQ(lltostr({I(0), I(8)}), "0");
    EXPECT_EQ(lltostr({I(5), I(2)}), "101");
    EXPECT_EQ(lltostr({I(35), I(36)}), "z");
    EXPECT_EQ(lltostr({I(uint64_t(-1)), I(2)}), std::string(64, '1'));
}

TEST(ConvertSubr, LltostrRejectsBadBases) {
    for (uint64_t base : {0ull, 1ull, 37ull}) {
        Runner r;
        r.run(call_text("lltostr", {I(1), I(base)}));
        EXPECT_EQ(r.fault.kind, FaultKind::IllOp) << base;
    }
}

TEST(ConvertSubr, Strtoll) {
    EXPECT_EQ(strtoll({S("123")}), 123);
    EXPECT_EQ(strtoll({S(" \\t-42xyz")}), -42);
    EXPECT_EQ(strtoll({S("+7")}), 7);
    EXPECT_EQ(strtoll({S("")}), 0);
    EXPECT_EQ(strtoll({S("abc")}), 0);
    EXPECT_EQ(strtoll({S("ff"), I(16)}), 255);
    EXPECT_EQ(strtoll({S("0x1F"), I(16)}), 31);
    EXPECT_EQ(strtoll({S("0xg"), I(16)}), 0); // "0x" is kept unless a hex digit follows
    EXPECT_EQ(strtoll({S("101"), I(2)}), 5);
    EXPECT_EQ(strtoll({S("z"), I(36)}), 35);
    EXPECT_EQ(strtoll({S("Z"), I(36)}), 35);
    EXPECT_EQ(strtoll({S("19"), I(8)}), 1);
    EXPECT_EQ(strtoll({S("0x10")}), 0); // no prefix in base 10
}

TEST(ConvertSubr, StrtollWrapsOnOverflow) {
    uint64_t expected = 0;
    for (char c : std::string("99999999999999999999"))
        expected = expected * 10 + uint64_t(c - '0');
    EXPECT_EQ(strtoll({S("99999999999999999999")}), static_cast<int64_t>(expected));
}

TEST(ConvertSubr, StrtollRejectsBadBases) {
    Runner r;
    r.run(call_text("strtoll", {S("1"), I(1)}));
    EXPECT_EQ(r.fault.kind, FaultKind::IllOp);
}

TEST(ConvertSubr, ByteOrder) {
    EXPECT_EQ(call("htons", 0x1234), 0x3412u);
    EXPECT_EQ(call("htons", 0x12345678), 0x7856u); // only the low 16 bits
    EXPECT_EQ(call("htonl", 0x12345678), 0x78563412u);
    EXPECT_EQ(call("htonll", 0x0102030405060708), 0x0807060504030201u);
    EXPECT_EQ(call("ntohs", 0x3412), 0x1234u);
    EXPECT_EQ(call("ntohl", 0x78563412), 0x12345678u);
    EXPECT_EQ(call("ntohll", 0x0807060504030201), 0x0102030405060708u);
}

TEST(ConvertSubr, RandIsDeterministicAndInRange) {
    constexpr uint64_t kModulus = 1771875;
    Runner a, b;
    std::string text = call_text("rand", {});
    uint64_t expected = 1;
    for (int i = 0; i < 5; i++) {
        uint64_t x = a.run(text);
        EXPECT_EQ(x, b.run(text));
        expected = (expected * 2416 + 374441) % kModulus;
        EXPECT_EQ(x, expected);
        EXPECT_LT(x, kModulus);
    }
}

} // namespace
} // namespace dtrace::dif
