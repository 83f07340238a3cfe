// printf() output: each conversion, flag and width against what DTrace's
// dt_printf_format() hands printf(3C) (size-dependent "ll", 32-bit widening,
// precision only when positive, custom conversions padded as %s).
#include "test_support.h"

#include <cstring>
#include <vector>

namespace dtrace::consumer {
namespace {

using test::printf_of;
using test::spaces;

Value i8(int8_t v) {
    return Value::integer(static_cast<uint64_t>(v), 1, true);
}
Value i16(int16_t v) {
    return Value::integer(static_cast<uint64_t>(v), 2, true);
}
Value i32(int32_t v) {
    return Value::integer(static_cast<uint64_t>(v), 4, true);
}
Value u32(uint32_t v) {
    return Value::integer(v, 4, false);
}
Value i64(int64_t v) {
    return Value::integer(static_cast<uint64_t>(v), 8, true);
}
Value u64(uint64_t v) {
    return Value::integer(v, 8, false);
}

Value f64(double d) {
    uint64_t bits = 0;
    std::memcpy(&bits, &d, sizeof(bits));
    return Value::integer(bits, 8, true);
}
Value f32(float f) {
    uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof(bits));
    return Value::integer(bits, 4, true);
}

TEST(PrintfFormat, LiteralTextOnly) {
    EXPECT_EQ(printf_of("hello, world\n", {}), "hello, world\n");
}

TEST(PrintfFormat, SignedDecimalBySize) {
    EXPECT_EQ(printf_of("%d", {i32(-5)}), "-5");
    EXPECT_EQ(printf_of("%d", {i8(-1)}), "-1");
    EXPECT_EQ(printf_of("%i", {i16(-300)}), "-300");
    EXPECT_EQ(printf_of("%d", {i64(-9000000000LL)}), "-9000000000");
}

TEST(PrintfFormat, DecimalOfUnsignedBecomesU) {
    EXPECT_EQ(printf_of("%d", {u32(0xffffffffU)}), "4294967295");
    EXPECT_EQ(printf_of("%d", {u64(~0ULL)}), "18446744073709551615");
}

TEST(PrintfFormat, UnsignedConversionsWidenSmallIntegersWithoutSign) {
    EXPECT_EQ(printf_of("%u", {i8(-1)}), "255");
    EXPECT_EQ(printf_of("%x", {i16(-1)}), "ffff");
    EXPECT_EQ(printf_of("%x", {i32(-1)}), "ffffffff");
    EXPECT_EQ(printf_of("%x", {i64(-1)}), "ffffffffffffffff");
    EXPECT_EQ(printf_of("%X", {i32(255)}), "FF");
    EXPECT_EQ(printf_of("%o", {i32(8)}), "10");
}

TEST(PrintfFormat, AlternateForms) {
    EXPECT_EQ(printf_of("%#x", {i32(255)}), "0xff");
    EXPECT_EQ(printf_of("%#o", {i32(8)}), "010");
    EXPECT_EQ(printf_of("%#X", {i64(255)}), "0XFF");
}

TEST(PrintfFormat, WidthAndFlags) {
    EXPECT_EQ(printf_of("%5d|%-5d|%05d|%+d|% d", {i32(42), i32(42), i32(42), i32(42), i32(42)}),
              "   42|42   |00042|+42| 42");
    EXPECT_EQ(printf_of("%-05d|", {i32(42)}), "00042|"); // a later '0' cancels '-'
    EXPECT_EQ(printf_of("%0-5d|", {i32(42)}), "42   |");
    EXPECT_EQ(printf_of("%'d", {i32(1234567)}), "1234567"); // no grouping in the C locale
}

TEST(PrintfFormat, PrecisionOnlyWhenPositive) {
    EXPECT_EQ(printf_of("%.3d", {i32(42)}), "042");
    // C prints nothing for "%.0d" of 0; DTrace drops a zero precision.
    EXPECT_EQ(printf_of("[%.0d]", {i32(0)}), "[0]");
    EXPECT_EQ(printf_of("[%.0s]", {Value::string("abc", 8)}), "[abc]");
}

TEST(PrintfFormat, DynamicWidthAndPrecision) {
    EXPECT_EQ(printf_of("[%*d]", {i32(6), i32(42)}), "[    42]");
    EXPECT_EQ(printf_of("[%*d]", {i32(-6), i32(42)}), "[42    ]");
    EXPECT_EQ(printf_of("[%.*s]", {i32(3), Value::string("abcdef", 16)}), "[abc]");
    EXPECT_EQ(printf_of("[%*.*s]", {i64(5), i64(2), Value::string("abcdef", 16)}), "[   ab]");
    EXPECT_EQ(printf_of("[%.*s]", {i32(-1), Value::string("abcdef", 16)}), "[abcdef]");
}

TEST(PrintfFormat, Strings) {
    EXPECT_EQ(printf_of("%s", {Value::string("dtrace", 256)}), "dtrace");
    EXPECT_EQ(printf_of("[%-8s]", {Value::string("ab", 256)}), "[ab      ]");
    EXPECT_EQ(printf_of("[%10.5s]", {Value::string("abcdefgh", 256)}), "[     abcde]");
    EXPECT_EQ(printf_of("%s", {Value::raw(std::string("ab\0cd", 5))}), "ab"); // char [5]
}

TEST(PrintfFormat, Characters) {
    EXPECT_EQ(printf_of("%c", {i32('A')}), "A");
    EXPECT_EQ(printf_of("[%3c]", {i8('z')}), "[  z]");
    EXPECT_EQ(printf_of("%lc", {i32('B')}), "B");
    EXPECT_EQ(printf_of("%wc", {i32('C')}), "C");
    EXPECT_EQ(printf_of("%c", {i64('D')}), "D"); // an unchecked 8-byte record still prints as a char
}

TEST(PrintfFormat, EscapedCharacters) {
    EXPECT_EQ(printf_of("%C", {i8('\n')}), "\\n");
    EXPECT_EQ(printf_of("%C", {i8('q')}), "q");
    EXPECT_EQ(printf_of("%C", {i8(static_cast<int8_t>(0xe9))}), "\\351");
    EXPECT_EQ(printf_of("%C", {i32(0)}), "\\0");
}

TEST(PrintfFormat, EscapedStringsShowTheTerminatingNul) {
    // %S escapes the whole record: the NUL after the string shows as "\0".
    EXPECT_EQ(printf_of("%S", {Value::string("a\tb\"c\\", 16)}), "a\\tb\\\"c\\\\\\0");
    EXPECT_EQ(printf_of("%S", {Value::string("full", 4)}), "full");
    EXPECT_EQ(printf_of("%S", {Value::string("\x01", 1)}), "\\001");
}

TEST(PrintfFormat, Pointers) {
    // %p is %x of the pointer: no "0x" unless '#' asks for it.
    EXPECT_EQ(printf_of("%p", {u64(0x1234)}), "1234");
    EXPECT_EQ(printf_of("%#p", {u64(0x1234)}), "0x1234");
    EXPECT_EQ(printf_of("[%?p]", {u64(0xbeef)}), "[" + spaces(12) + "beef]");
}

TEST(PrintfFormat, KernelAddresses) {
    EXPECT_EQ(printf_of("%a", {u64(0xfffffffffb800000ULL)}), "0xfffffffffb800000");
    FormatContext ctx;
    ctx.resolvers.kernel_symbol = [](uint64_t a) -> std::optional<Symbol> {
        if (a == 0x1010)
            return Symbol{"genunix", "cv_wait", 0x10};
        return std::nullopt;
    };
    EXPECT_EQ(printf_of("[%-22a]", {u64(0x1010)}, ctx), "[genunix`cv_wait+0x10  ]");
    EXPECT_EQ(printf_of("%a", {u64(0x2000)}, ctx), "0x2000");
}

TEST(PrintfFormat, UserAddresses) {
    EXPECT_EQ(printf_of("%A", {u64(0x400000)}), "0x400000");
    FormatContext ctx;
    ctx.resolvers.user_symbol = [](uint64_t pid, uint64_t a) -> std::optional<Symbol> {
        return Symbol{"pid" + std::to_string(pid), "main", a - 0x400000};
    };
    uint64_t words[2] = {42, 0x400004};
    std::string bytes(sizeof(words), '\0');
    std::memcpy(bytes.data(), words, sizeof(words));
    EXPECT_EQ(printf_of("%A", {Value::raw(bytes)}, ctx), "pid42`main+0x4");
}

TEST(PrintfFormat, WalltimeY) {
    test::ScopedTimeZone utc("UTC");
    EXPECT_EQ(printf_of("%Y", {u64(0)}), "1970 Jan  1 00:00:00");
    EXPECT_EQ(printf_of("%Y", {u64(1234567890ULL * 1000000000ULL + 999)}), "2009 Feb 13 23:31:30");
    EXPECT_EQ(printf_of("[%-22Y]", {u64(0)}), "[1970 Jan  1 00:00:00  ]");
}

TEST(PrintfFormat, WalltimeYFollowsLocalTime) {
    test::ScopedTimeZone tz("EST5");
    EXPECT_EQ(printf_of("%Y", {u64(0)}), "1969 Dec 31 19:00:00");
}

TEST(PrintfFormat, WalltimeRfc822) {
    test::ScopedTimeZone utc("UTC");
    EXPECT_EQ(printf_of("%T", {u64(1234567890ULL * 1000000000ULL)}), "Fri, 13 Feb 2009 23:31:30 UTC");
    // DTrace asks strftime for %G, the ISO week-based year: 2010-01-01 is in
    // ISO year 2009.
    EXPECT_EQ(printf_of("%T", {u64(1262304000ULL * 1000000000ULL)}), "Fri, 01 Jan 2009 00:00:00 UTC");
}

TEST(PrintfFormat, Percent) {
    EXPECT_EQ(printf_of("100%%", {}), "100%");
    EXPECT_EQ(printf_of("%d%%", {i32(5)}), "5%");
}

TEST(PrintfFormat, FloatingPointRecordsAreReadAsFloats) {
    EXPECT_EQ(printf_of("%f", {f64(1.5)}), "1.500000");
    EXPECT_EQ(printf_of("%e", {f64(1.5)}), "1.500000e+00");
    EXPECT_EQ(printf_of("%.2E", {f64(12345.678)}), "1.23E+04");
    EXPECT_EQ(printf_of("%g", {f32(2.5f)}), "2.5");
    EXPECT_EQ(printf_of("%8.3f|", {f32(-0.25f)}), "  -0.250|");
}

TEST(PrintfFormat, LengthModifiedConversions) {
    EXPECT_EQ(printf_of("%ld %lu %lx", {i64(-1), u64(7), i64(255)}), "-1 7 ff");
    EXPECT_EQ(printf_of("%lld %llX", {i64(-2), i64(255)}), "-2 FF");
    EXPECT_EQ(printf_of("%hd %hu %hx", {i16(-2), i16(-2), i16(-2)}), "-2 65534 fffe");
}

TEST(PrintfFormat, WideStrings) {
    const uint32_t wide[] = {'h', 'i', 0, 'x'};
    std::string bytes(sizeof(wide), '\0');
    std::memcpy(bytes.data(), wide, sizeof(wide));
    EXPECT_EQ(printf_of("[%ls|%4ws]", {Value::raw(bytes), Value::raw(bytes)}), "[hi|  hi]");
}

TEST(PrintfFormat, PortsAndAddresses) {
    EXPECT_EQ(printf_of("%P", {Value::integer(22, 2, false)}), "22");
    EXPECT_EQ(printf_of("%I", {Value::string("10.0.0.1", 64)}), "10.0.0.1");
    FormatContext ctx;
    ctx.resolvers.service_name = [](uint16_t p) -> std::optional<std::string> {
        return p == 22 ? std::optional<std::string>("ssh") : std::nullopt;
    };
    ctx.resolvers.host_name = [](std::string_view a) -> std::optional<std::string> {
        return a == "127.0.0.1" ? std::optional<std::string>("localhost") : std::nullopt;
    };
    EXPECT_EQ(printf_of("%P %P", {Value::integer(22, 2, false), Value::integer(8080, 2, false)}, ctx), "ssh 8080");
    EXPECT_EQ(printf_of("%I", {Value::string("127.0.0.1", 64)}, ctx), "localhost");
}

TEST(PrintfFormat, StacksApplyTheFormatToEachFrame) {
    const uint64_t pcs[] = {0x10, 0x20, 0};
    FormatContext ctx;
    ctx.resolvers.kernel_symbol = [](uint64_t a) -> std::optional<Symbol> {
        if (a == 0x10)
            return Symbol{"unix", "a", 0};
        return std::nullopt;
    };
    // Without '-' there is no indentation and the width pads each frame.
    EXPECT_EQ(printf_of("%8k", {Value::stack(pcs)}, ctx), "\n  unix`a\n    0x20\n");
    // With '-' the width becomes the indentation.
    EXPECT_EQ(printf_of("%-4k", {Value::stack(pcs)}, ctx), "\n    unix`a\n    0x20\n");
}

TEST(PrintfFormat, RunsOutOfRecords) {
    EXPECT_EQ(printf_of("%d %d", {i32(1)}), "<error: Data record list does not match statement>");
    EXPECT_EQ(printf_of("%d", {Value::string("x", 8)}), "<error: Data record list does not match statement>");
}

TEST(PrintfFormat, AbsurdWidthsAreRefusedNotAllocated) {
    EXPECT_EQ(printf_of("%999999999d", {i32(1)}), "<error: format width or precision is too large>");
}

TEST(PrintfFormat, PrintaValuesAndKeys) {
    const Format f = test::parsed("%-10s %@5d %@x\n");
    const std::vector<Value> keys{Value::string("sh", 256)};
    std::vector<AggValue> values(2);
    values[0].scalar = Value::integer(12, 8, true);
    values[1].scalar = Value::integer(255, 8, true);
    auto out = format_printa(f, keys, values);
    ASSERT_TRUE(out);
    EXPECT_EQ(out.value(), "sh            12 ff\n");
}

TEST(PrintfFormat, PrintaReusesTheLastValueAndDividesByNormal) {
    const Format f = test::parsed("%@d %@d\n");
    AggValue v;
    v.scalar = Value::integer(100, 8, true);
    v.normal = 10;
    auto out = format_printa(f, {}, std::span<const AggValue>(&v, 1));
    ASSERT_TRUE(out);
    EXPECT_EQ(out.value(), "10 10\n");
}

} // namespace
} // namespace dtrace::consumer
