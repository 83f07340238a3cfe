// Raw records (dt_print_bytes()): strings recognised in byte data, and the
// hex dump with its "0 1 2 ... f  0123456789abcdef" header.
#include "test_support.h"

#include "consumer/bytes_format.h"
#include "consumer/record_format.h"

namespace dtrace::consumer {
namespace {

using test::spaces;

TEST(BytesFormat, HexDumpLayout) {
    const std::string data = "ABCDEFGHIJKLMNOP\x01\xff" + std::string("q");
    const std::string expected = "\n" + spaces(11) +
                                 "  0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n" + spaces(9) +
                                 "0: 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50  ABCDEFGHIJKLMNOP\n" + spaces(8) +
                                 "10: 01 ff 71" + spaces(39) + "  ..q\n";
    EXPECT_EQ(format_hex_dump(data), expected);
}

TEST(BytesFormat, BinaryDataIsDumped) {
    const std::string data("\x01\x02\x03\x04", 4);
    EXPECT_EQ(format_bytes(data, kTraceStringWidth, false, false), format_hex_dump(data));
    EXPECT_EQ(format_trace(Value::raw(data)), format_hex_dump(data));
}

TEST(BytesFormat, StringFollowedByGarbageIsDumped) {
    const std::string data("ab\0c", 4);
    EXPECT_EQ(format_bytes(data, kTraceStringWidth, false, false), format_hex_dump(data));
}

TEST(BytesFormat, PrintableDataIsAString) {
    const std::string data("ab\0\0", 4);
    EXPECT_EQ(format_bytes(data, kTraceStringWidth, false, false), "  ab" + spaces(31));
    EXPECT_EQ(format_bytes(data, kAggKeyStringWidth, false, false), "  ab" + spaces(48));
    EXPECT_EQ(format_bytes(data, kTraceStringWidth, true, false), "ab");
    // Tabs, newlines, backspace and bell count as printable.
    EXPECT_EQ(format_bytes(std::string("a\tb\a\0", 5), kTraceStringWidth, true, false), "a\tb\a");
}

TEST(BytesFormat, RawForcesTheDump) {
    EXPECT_EQ(format_bytes(std::string("ab\0", 3), kTraceStringWidth, false, true),
              format_hex_dump(std::string("ab\0", 3)));
    EXPECT_EQ(format_tracemem("hi", true), format_hex_dump("hi"));
}

TEST(BytesFormat, NothingForNothing) {
    EXPECT_EQ(format_bytes("", kTraceStringWidth, false, false), "");
}

} // namespace
} // namespace dtrace::consumer
