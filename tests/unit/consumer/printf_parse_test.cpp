// Parsing of printf formats: the pieces, the flags, and DTrace's D_SYNTAX
// messages for malformed conversions (dt_printf_create()).
#include "test_support.h"

namespace dtrace::consumer {
namespace {

using test::parsed;

std::string parse_error(std::string_view text) {
    auto f = parse_format(text);
    EXPECT_FALSE(f.ok()) << text;
    if (f)
        return "";
    EXPECT_EQ(f.error().tag, compiler::Tag::D_SYNTAX);
    return f.error().message;
}

TEST(PrintfParse, SplitsLiteralTextAroundConversions) {
    const Format f = parsed("pid %d is %s\n");
    ASSERT_EQ(f.pieces.size(), 3u);
    EXPECT_EQ(f.pieces[0].prefix, "pid ");
    EXPECT_EQ(f.pieces[0].info->name, "d");
    EXPECT_EQ(f.pieces[1].prefix, " is ");
    EXPECT_EQ(f.pieces[1].info->name, "s");
    EXPECT_EQ(f.pieces[2].prefix, "\n");
    EXPECT_EQ(f.pieces[2].info, nullptr);
}

TEST(PrintfParse, NoTrailingPieceWhenFormatEndsWithConversion) {
    EXPECT_EQ(parsed("%d").pieces.size(), 1u);
}

TEST(PrintfParse, EmptyFormatIsOneEmptyPiece) {
    const Format f = parsed("");
    ASSERT_EQ(f.pieces.size(), 1u);
    EXPECT_EQ(f.pieces[0].info, nullptr);
}

TEST(PrintfParse, LengthModifiersBecomePartOfTheName) {
    EXPECT_EQ(parsed("%lld").pieces[0].info->name, "lld");
    EXPECT_EQ(parsed("%lld").pieces[0].info->output, "d");
    EXPECT_EQ(parsed("%hx").pieces[0].info->name, "hx");
    EXPECT_EQ(parsed("%Lf").pieces[0].info->name, "Lf");
    EXPECT_EQ(parsed("%ws").pieces[0].info->name, "ws");
}

TEST(PrintfParse, Flags) {
    const Conversion c = parsed("%#+ '8.3x").pieces[0];
    EXPECT_TRUE(c.has(kFlagAlt));
    EXPECT_TRUE(c.has(kFlagPlus));
    EXPECT_TRUE(c.has(kFlagSpace));
    EXPECT_TRUE(c.has(kFlagGroup));
    EXPECT_EQ(c.width, 8);
    EXPECT_EQ(c.precision, 3);
}

TEST(PrintfParse, ZeroAndMinusCancelEachOtherInOrder) {
    const Conversion zero_last = parsed("%-05d").pieces[0];
    EXPECT_TRUE(zero_last.has(kFlagZeroPad));
    EXPECT_FALSE(zero_last.has(kFlagLeft));
    EXPECT_EQ(zero_last.width, 5);
    const Conversion minus_last = parsed("%0-5d").pieces[0];
    EXPECT_FALSE(minus_last.has(kFlagZeroPad));
    EXPECT_TRUE(minus_last.has(kFlagLeft));
}

TEST(PrintfParse, ZeroInsideAWidthIsADigit) {
    const Conversion c = parsed("%10d").pieces[0];
    EXPECT_FALSE(c.has(kFlagZeroPad));
    EXPECT_EQ(c.width, 10);
}

TEST(PrintfParse, DynamicWidthAndPrecision) {
    const Conversion c = parsed("%*.*s").pieces[0];
    EXPECT_TRUE(c.has(kFlagDynWidth));
    EXPECT_TRUE(c.has(kFlagDynPrec));
}

TEST(PrintfParse, QuestionMarkIsPointerWidth) {
    EXPECT_EQ(parsed("%?p").pieces[0].width, 16);
}

TEST(PrintfParse, AggregationFlag) {
    const Conversion c = parsed("%@8d").pieces[0];
    EXPECT_TRUE(c.has(kFlagAggValue));
    EXPECT_EQ(c.width, 8);
}

TEST(PrintfParse, DoublePercentIsAConversion) {
    const Format f = parsed("100%%");
    ASSERT_EQ(f.pieces.size(), 1u);
    EXPECT_EQ(f.pieces[0].prefix, "100");
    EXPECT_EQ(f.pieces[0].info->printer, Printer::Percent);
}

TEST(PrintfParse, UndefinedConversions) {
    EXPECT_EQ(parse_error("%z"), "format conversion #1 is undefined: %z");
    EXPECT_EQ(parse_error("%hhd"), "format conversion #1 is undefined: %hhd");
    EXPECT_EQ(parse_error("%zd"), "format conversion #1 is undefined: %z");
    EXPECT_EQ(parse_error("%jd"), "format conversion #1 is undefined: %j");
    EXPECT_EQ(parse_error("%d %s %q"), "format conversion #3 is undefined: %q");
}

TEST(PrintfParse, ConversionNumbersCountPercentPercent) {
    EXPECT_EQ(parse_error("%% %v"), "format conversion #2 is undefined: %v");
}

TEST(PrintfParse, MalformedConversions) {
    EXPECT_EQ(parse_error("abc%"), "format conversion #1 name expected before end of format string");
    EXPECT_EQ(parse_error("%-%"), "format conversion #1 cannot be combined with other format flags: %%");
    EXPECT_EQ(parse_error("%1$d"), "format conversion #1 uses unsupported positional format (%n$)");
    EXPECT_EQ(parse_error("%1.2.3d"), "format conversion #1 has more than one '.' specified");
    // DTrace says "precision" even when it is the width's '*' that repeats.
    EXPECT_EQ(parse_error("%**d"), "format conversion #1 has more than one '*' specified for the output precision");
    EXPECT_EQ(parse_error("%.**d"), "format conversion #1 has more than one '*' specified for the output precision");
}

} // namespace
} // namespace dtrace::consumer
