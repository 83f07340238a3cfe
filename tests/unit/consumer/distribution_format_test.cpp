// The distribution art of quantize(), lquantize() and llquantize()
// (dt_print_quantize() and friends). The row layout, "%16lld |<40 columns> %-9lld",
// is that of the Guide's quantize example (Aggregations chapter: the
// "value  ------------- Distribution ------------- count" table).
#include "test_support.h"

#include "consumer/distribution_format.h"

#include <algorithm>

namespace dtrace::consumer {

using namespace aggdata; // the data layouts the formats read
namespace {

using test::spaces;

const std::string kHeader = "\n" + spaces(11) + "value  ------------- Distribution ------------- count    \n";

std::string label(const std::string &value) {
    return spaces(16 - value.size()) + value + " ";
}
std::string count(long long n) {
    const std::string s = std::to_string(n);
    return " " + s + spaces(s.size() < 9 ? 9 - s.size() : 0) + "\n";
}
std::string bar(unsigned depth) {
    return "|" + std::string(depth, '@') + spaces(40 - depth);
}

std::vector<int64_t> quantize_of(std::initializer_list<std::pair<int64_t, int64_t>> values) {
    std::vector<int64_t> d;
    for (auto [v, n] : values)
        aggregate_update(AggFunc::Quantize, {}, d, v, n);
    return d;
}

// -x encoding=utf8: `whole` full blocks (U+2588), then the eighths left over
// as one left block (U+258F one eighth ... U+2589 seven eighths).
std::string utf8_bar(unsigned whole, unsigned eighths) {
    std::string out = "|";
    for (unsigned i = 0; i < whole; i++)
        out += "\u2588";
    const char *partial[] = {"", "\u258F", "\u258E", "\u258D", "\u258C", "\u258B", "\u258A", "\u2589"};
    out += partial[eighths];
    return out + spaces(40 - whole - (eighths != 0 ? 1 : 0));
}

TEST(DistributionFormat, Utf8BarsEndInEighths) {
    const auto d = quantize_of({{1, 1}, {2, 1}, {3, 1}});
    // 13.33 columns: 13 blocks and 2 eighths; 26.67: 26 blocks and 5 eighths (truncated, not rounded).
    const std::string expected = kHeader + label("0") + utf8_bar(0, 0) + count(0) + label("1") + utf8_bar(13, 2) +
                                 count(1) + label("2") + utf8_bar(26, 5) + count(2) + label("4") + utf8_bar(0, 0) +
                                 count(0);
    EXPECT_EQ(format_quantize(d, 1, false, true), expected);
    // Negative counts keep the '@' bars.
    const auto negative = quantize_of({{1, -1}});
    EXPECT_EQ(format_quantize(negative, 1, false, true), format_quantize(negative, 1, false));
}

TEST(DistributionFormat, QuantizeShowsOneZeroRowOfMarginEachSide) {
    const auto d = quantize_of({{1, 1}, {2, 1}, {3, 1}});
    // 1 of 3 is 13.3 columns, 2 of 3 is 26.7: rounded to 13 and 27.
    const std::string expected = kHeader + label("0") + bar(0) + count(0) + label("1") + bar(13) + count(1) +
                                 label("2") + bar(27) + count(2) + label("4") + bar(0) + count(0);
    EXPECT_EQ(format_quantize(d, 1, false), expected);
}

TEST(DistributionFormat, QuantizeNormalizedCounts) {
    const auto d = quantize_of({{8, 100}});
    const std::string expected =
        kHeader + label("4") + bar(0) + count(0) + label("8") + bar(40) + count(10) + label("16") + bar(0) + count(0);
    EXPECT_EQ(format_quantize(d, 10, false), expected);
}

TEST(DistributionFormat, EmptyQuantizeShowsTheRowsAroundZero) {
    const std::vector<int64_t> d(127, 0);
    const std::string expected =
        kHeader + label("-1") + bar(0) + count(0) + label("0") + bar(0) + count(0) + label("1") + bar(0) + count(0);
    EXPECT_EQ(format_quantize(d, 1, false), expected);
    // DTrace's scan for data stops short of the top bucket, so a count there
    // alone still shows the rows around zero.
    std::vector<int64_t> top(127, 0);
    top[126] = 5;
    EXPECT_EQ(format_quantize(top, 1, false), expected);
}

TEST(DistributionFormat, NegativeCountsDrawToTheLeft) {
    const auto d = quantize_of({{1, -1}});
    const std::string empty_left = spaces(40) + "| ";
    const std::string expected = kHeader + label("0") + empty_left + "0        \n" + label("1") + std::string(40, '@') +
                                 "| -1       \n" + label("2") + empty_left + "0        \n";
    EXPECT_EQ(format_quantize(d, 1, false), expected);
}

TEST(DistributionFormat, MixedSignsSplitTheBar) {
    const auto d = quantize_of({{1, 2}, {2, -2}});
    const std::string expected = kHeader + label("0") + spaces(20) + "|" + spaces(20) + count(0) + label("1") +
                                 spaces(20) + "|" + std::string(10, '@') + spaces(10) + count(2) + label("2") +
                                 spaces(10) + std::string(10, '@') + "|" + spaces(20) + count(-2) + label("4") +
                                 spaces(20) + "|" + spaces(20) + count(0);
    EXPECT_EQ(format_quantize(d, 1, false), expected);
}

TEST(DistributionFormat, ZoomScalesToTheTallestRow) {
    const auto d = quantize_of({{1, 1}, {2, 3}});
    // total = 3 / 0.95: the tallest bar is 38 columns, the other 12.67 -> 13.
    const std::string expected = kHeader + label("0") + bar(0) + count(0) + label("1") + bar(13) + count(1) +
                                 label("2") + bar(38) + count(3) + label("4") + bar(0) + count(0);
    EXPECT_EQ(format_quantize(d, 1, true), expected);
}

TEST(DistributionFormat, Lquantize) {
    const std::vector<int64_t> params{0, 10, 5};
    std::vector<int64_t> d;
    for (int64_t v : {-1, 3, 4, 100})
        aggregate_update(AggFunc::Lquantize, params, d, v);
    const std::string expected = kHeader + label("< 0") + bar(10) + count(1) + label("0") + bar(20) + count(2) +
                                 label("5") + bar(0) + count(0) + label(">= 10") + bar(10) + count(1);
    EXPECT_EQ(format_distribution(AggFunc::Lquantize, params, d, 1, false), expected);
}

TEST(DistributionFormat, LquantizeTrimsToTheData) {
    const std::vector<int64_t> params{0, 100, 10};
    std::vector<int64_t> d;
    aggregate_update(AggFunc::Lquantize, params, d, 42);
    const std::string expected =
        kHeader + label("30") + bar(0) + count(0) + label("40") + bar(40) + count(1) + label("50") + bar(0) + count(0);
    EXPECT_EQ(format_distribution(AggFunc::Lquantize, params, d, 1, false), expected);
    const std::vector<int64_t> empty(12, 0);
    const std::string none =
        kHeader + label("< 0") + bar(0) + count(0) + label("0") + bar(0) + count(0) + label("10") + bar(0) + count(0);
    EXPECT_EQ(format_distribution(AggFunc::Lquantize, params, empty, 1, false), none);
}

TEST(DistributionFormat, Llquantize) {
    const std::vector<int64_t> params{10, 0, 2, 10};
    std::vector<int64_t> d;
    aggregate_update(AggFunc::Llquantize, params, d, 5);
    aggregate_update(AggFunc::Llquantize, params, d, 50);
    std::string expected = kHeader;
    for (const char *v : {"4", "5", "6", "7", "8", "9", "10", "20", "30", "40", "50", "60"}) {
        const bool hit = std::string(v) == "5" || std::string(v) == "50";
        expected += label(v) + bar(hit ? 20 : 0) + count(hit ? 1 : 0);
    }
    EXPECT_EQ(format_distribution(AggFunc::Llquantize, params, d, 1, false), expected);
}

TEST(DistributionFormat, LlquantizeOpenEndedRows) {
    const std::vector<int64_t> params{10, 0, 2, 10};
    std::vector<int64_t> d;
    aggregate_update(AggFunc::Llquantize, params, d, 0);
    aggregate_update(AggFunc::Llquantize, params, d, 5000);
    const std::string out = format_distribution(AggFunc::Llquantize, params, d, 1, false);
    EXPECT_EQ(out.rfind(kHeader + label("< 1") + bar(20) + count(1) + label("1") + bar(0) + count(0), 0), 0u);
    const std::string tail = label("900") + bar(0) + count(0) + label(">= 1000") + bar(20) + count(1);
    EXPECT_EQ(out.substr(out.size() - tail.size()), tail);
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2 + 29);
}

} // namespace
} // namespace dtrace::consumer
