// Aggregation output: the default rows (dt_print_aggs()/dt_print_datum()),
// the sort orders and options (dt_aggregate.c's comparators), printa() of
// several aggregations joined on their keys, and printa() with formats.
#include "test_support.h"

#include "consumer/agg_format.h"
#include "consumer/bytes_format.h"
#include "consumer/cformat.h"

#include <climits>
#include <cstdint>

namespace dtrace::consumer {

using namespace aggdata; // the data layouts the formats read
namespace {

using test::spaces;

Value str(std::string_view s) {
    return Value::string(s, 256);
}
Value i64(int64_t v) {
    return Value::integer(static_cast<uint64_t>(v), 8, true);
}

AggregationSnapshot make(uint32_t id, AggFunc func, std::vector<AggEntry> entries, std::vector<int64_t> params = {}) {
    AggregationSnapshot a;
    a.decl.id = id;
    a.decl.name = "a" + std::to_string(id);
    a.decl.func = func;
    a.decl.params = std::move(params);
    a.entries = std::move(entries);
    return a;
}

// "  %-50s" of a string key, then " %16lld" of the value.
std::string row(std::string_view key, long long value) {
    const std::string v = std::to_string(value);
    return "  " + std::string(key) + spaces(50 - key.size()) + " " + spaces(16 - v.size()) + v + "\n";
}

TEST(AggFormat, CountByStringKeyAsInTheGuide) {
    // The Guide's writes.d: "  write system calls" and the count in 69 columns.
    const auto a = make(1, AggFunc::Count, {{{str("write system calls")}, {179}}});
    const std::string out = print_aggregation(a, {});
    EXPECT_EQ(out, "\n" + row("write system calls", 179));
    EXPECT_EQ(out.size(), 1u + 69u + 1u);
}

TEST(AggFormat, AnEmptyStringKeyIsDumpedInHex) {
    // As DTrace's dt_print_bytes(): strsize NULs have no printable byte
    // before the NUL, so they are not taken for a string.
    const auto a = make(1, AggFunc::Count, {{{str("")}, {3}}});
    const std::string out = print_aggregation(a, {});
    EXPECT_NE(out.find("0123456789abcdef\n         0: 00 00 00 00"), std::string::npos) << out;
    EXPECT_EQ(out.find(row("", 3)), std::string::npos) << out;
}

TEST(AggFormat, DecimalColumnsAsPrintfPrintsThem) {
    for (long long v : {0LL, 7LL, -7LL, 1234567890123456789LL, LLONG_MIN, LLONG_MAX}) {
        for (int width : {0, 3, 16, 25}) {
            std::string out = "x";
            append_decimal(out, v, width);
            EXPECT_EQ(out, "x" + c_printf("%*lld", width, v)) << v << " in " << width;
        }
    }
    std::string out;
    append_decimal(out, static_cast<unsigned long long>(UINT64_MAX), 16);
    append_decimal(out, -5, 5);
    EXPECT_EQ(out, c_printf("%16llu%5d", static_cast<unsigned long long>(UINT64_MAX), -5));
}

TEST(AggFormat, AggregationWithoutKeys) {
    const auto a = make(1, AggFunc::Sum, {{{}, {-12}}});
    EXPECT_EQ(print_aggregation(a, {}), "\n" + spaces(14) + "-12\n");
}

TEST(AggFormat, SortsByValueThenKey) {
    const auto a = make(1, AggFunc::Count, {{{str("sed")}, {4}}, {{str("dtrace")}, {1}}, {{str("cat")}, {4}}});
    EXPECT_EQ(print_aggregation(a, {}), "\n" + row("dtrace", 1) + row("cat", 4) + row("sed", 4));
    AggSortOptions rev;
    rev.sortrev = true;
    EXPECT_EQ(print_aggregation(a, rev), "\n" + row("sed", 4) + row("cat", 4) + row("dtrace", 1));
    AggSortOptions key;
    key.sortkey = true;
    EXPECT_EQ(print_aggregation(a, key), "\n" + row("cat", 4) + row("dtrace", 1) + row("sed", 4));
}

TEST(AggFormat, IntegerKeysByWidthAndUnsignedOrder) {
    const auto a = make(1, AggFunc::Count,
                        {{{i64(-1)}, {1}},
                         {{i64(1)}, {1}},
                         {{Value::integer(static_cast<uint64_t>(-7), 4, true)}, {1}},
                         {{Value::integer(static_cast<uint64_t>(-7), 2, true)}, {1}},
                         {{Value::integer(200, 1, false)}, {1}}});
    AggSortOptions key;
    key.sortkey = true;
    // Keys sort by record size first, then as unsigned numbers: -1 after 1.
    const std::string one = spaces(16) + "1\n";
    const std::string expected = "\n" + spaces(1) + "200" + one + spaces(1) + "65529" + one + spaces(7) + "-7" + one +
                                 spaces(16) + "1" + one + spaces(15) + "-1" + one;
    EXPECT_EQ(print_aggregation(a, key), expected);
}

TEST(AggFormat, StringKeysSortByUnsignedBytes) {
    const auto a =
        make(1, AggFunc::Count, {{{str("b")}, {1}}, {{str("\xe9t\xe9")}, {1}}, {{str("ab")}, {1}}, {{str("a")}, {1}}});
    AggSortOptions key;
    key.sortkey = true;
    // Bytes outside ASCII are not printable in the C locale: that key is dumped.
    std::string record = "\xe9t\xe9";
    record.resize(256, '\0');
    EXPECT_EQ(print_aggregation(a, key),
              "\n" + row("a", 1) + row("ab", 1) + row("b", 1) + format_hex_dump(record) + spaces(16) + "1\n");
}

TEST(AggFormat, SortKeyPosition) {
    const auto a = make(1, AggFunc::Count, {{{i64(1), str("b")}, {5}}, {{i64(2), str("a")}, {5}}});
    const std::string one = spaces(16) + "1  b" + spaces(49) + " " + spaces(15) + "5\n";
    const std::string two = spaces(16) + "2  a" + spaces(49) + " " + spaces(15) + "5\n";
    AggSortOptions by_first;
    by_first.sortkey = true;
    EXPECT_EQ(print_aggregation(a, by_first), "\n" + one + two);
    AggSortOptions by_second = by_first;
    by_second.sortkeypos = 1;
    EXPECT_EQ(print_aggregation(a, by_second), "\n" + two + one);
    // Equal values fall back on the keys, from the same position.
    AggSortOptions value_then_second;
    value_then_second.sortkeypos = 1;
    EXPECT_EQ(print_aggregation(a, value_then_second), "\n" + two + one);
    by_second.sortkeypos = 5; // out of range: back to the first key
    EXPECT_EQ(print_aggregation(a, by_second), "\n" + one + two);
}

TEST(AggFormat, ValuesOfEachFunction) {
    EXPECT_EQ(print_aggregation(make(1, AggFunc::Avg, {{{}, {3, -10}}}), {}), "\n" + spaces(15) + "-3\n");
    EXPECT_EQ(print_aggregation(make(1, AggFunc::Min, {{{}, {-5}}}), {}), "\n" + spaces(15) + "-5\n");
    EXPECT_EQ(print_aggregation(make(1, AggFunc::Max, {{{}, {1234}}}), {}), "\n" + spaces(13) + "1234\n");
    std::vector<int64_t> sd;
    for (int64_t v : {2, 4, 4, 4, 5, 5, 7, 9})
        aggregate_update(AggFunc::Stddev, {}, sd, v);
    EXPECT_EQ(print_aggregation(make(1, AggFunc::Stddev, {{{}, sd}}), {}), "\n" + spaces(16) + "2\n");
}

TEST(AggFormat, NormalizedValues) {
    auto a = make(1, AggFunc::Sum, {{{}, {1000}}});
    a.entries[0].normal = 10;
    EXPECT_EQ(print_aggregation(a, {}), "\n" + spaces(14) + "100\n");
    // A negative sum is divided as an unsigned number, as DTrace does.
    a.entries[0].data = {-100};
    EXPECT_EQ(print_aggregation(a, {}), "\n" + std::string(" 1844674407370955151\n"));
    auto avg = make(1, AggFunc::Avg, {{{}, {2, 1000}}});
    avg.entries[0].normal = 10;
    EXPECT_EQ(print_aggregation(avg, {}), "\n" + spaces(15) + "50\n");
}

TEST(AggFormat, QuantizeWithKey) {
    std::vector<int64_t> q;
    aggregate_update(AggFunc::Quantize, {}, q, 1);
    const auto a = make(1, AggFunc::Quantize, {{{str("bash")}, q}});
    const std::string expected = "\n  bash" + spaces(46) + "\n" + spaces(11) +
                                 "value  ------------- Distribution ------------- count    \n" + spaces(15) + "0 |" +
                                 spaces(40) + " 0        \n" + spaces(15) + "1 |" + std::string(40, '@') +
                                 " 1        \n" + spaces(15) + "2 |" + spaces(40) + " 0        \n\n";
    EXPECT_EQ(print_aggregation(a, {}), expected);
}

TEST(AggFormat, DistributionsSortByWeightedSum) {
    std::vector<int64_t> small, large;
    aggregate_update(AggFunc::Quantize, {}, small, 2, 10);
    aggregate_update(AggFunc::Quantize, {}, large, 1024);
    EXPECT_LT(compare_values(AggFunc::Quantize, {}, small, large), 0);
    const std::vector<int64_t> params{0, 10, 1};
    std::vector<int64_t> l1, l2;
    aggregate_update(AggFunc::Lquantize, params, l1, 0, 3); // weighted sum 0, 3 at zero
    aggregate_update(AggFunc::Lquantize, params, l2, 0, 1);
    EXPECT_GT(compare_values(AggFunc::Lquantize, params, l1, l2), 0);
}

TEST(AggFormat, AtExitPrintsEveryAggregationInProgramOrder) {
    std::vector<AggregationSnapshot> aggs;
    aggs.push_back(make(2, AggFunc::Count, {{{str("two")}, {2}}}));
    aggs.push_back(make(1, AggFunc::Count, {{{str("one")}, {1}}}));
    EXPECT_EQ(print_at_exit(aggs, {}), "\n" + row("one", 1) + row("two", 2));
    AggSortOptions rev;
    rev.sortrev = true;
    EXPECT_EQ(print_at_exit(aggs, rev), "\n" + row("two", 2) + row("one", 1));
    EXPECT_EQ(print_at_exit({}, {}), "\n");
}

std::vector<AggregationSnapshot> joined_pair() {
    std::vector<AggregationSnapshot> aggs;
    aggs.push_back(make(1, AggFunc::Count, {{{str("x")}, {1}}, {{str("y")}, {2}}}));
    aggs.push_back(make(2, AggFunc::Sum, {{{str("y")}, {5}}, {{str("z")}, {7}}}));
    return aggs;
}

std::string joined_row(std::string_view key, long long a, long long b) {
    const std::string sa = std::to_string(a);
    const std::string sb = std::to_string(b);
    return "  " + std::string(key) + spaces(50 - key.size()) + " " + spaces(16 - sa.size()) + sa + " " +
           spaces(16 - sb.size()) + sb + "\n";
}

TEST(AggFormat, PrintaOfSeveralAggregationsJoinsOnKeys) {
    const auto aggs = joined_pair();
    // Missing values are zeros; rows sort by the first aggregation's value.
    EXPECT_EQ(print_aggregations(aggs, {}),
              "\n" + joined_row("z", 0, 7) + joined_row("x", 1, 0) + joined_row("y", 2, 5));
    AggSortOptions second;
    second.sortpos = 1;
    EXPECT_EQ(print_aggregations(aggs, second),
              "\n" + joined_row("x", 1, 0) + joined_row("y", 2, 5) + joined_row("z", 0, 7));
    AggSortOptions key;
    key.sortkey = true;
    key.sortrev = true;
    EXPECT_EQ(print_aggregations(aggs, key),
              "\n" + joined_row("z", 0, 7) + joined_row("y", 2, 5) + joined_row("x", 1, 0));
}

TEST(AggFormat, PrintaWithFormat) {
    const auto a = make(1, AggFunc::Count, {{{str("sh")}, {3}}, {{str("ls")}, {10}}});
    const Format f = test::parsed("%-6s|%@4d\n");
    auto out = printa_format(f, std::span<const AggregationSnapshot>(&a, 1), {});
    ASSERT_TRUE(out);
    EXPECT_EQ(out.value(), "sh    |   3\nls    |  10\n");
}

TEST(AggFormat, PrintaWithFormatOfJoinedAggregations) {
    const auto aggs = joined_pair();
    auto out = printa_format(test::parsed("%s %@d %@d\n"), aggs, {});
    ASSERT_TRUE(out);
    EXPECT_EQ(out.value(), "z 0 7\nx 1 0\ny 2 5\n");
}

TEST(AggFormat, PrintaAverageIsComputedUnsigned) {
    // The default output divides signed; printa's %@ divides unsigned.
    const auto a = make(1, AggFunc::Avg, {{{}, {2, -20}}});
    EXPECT_EQ(print_aggregation(a, {}), "\n" + spaces(14) + "-10\n");
    auto out = printa_format(test::parsed("%@d\n"), std::span<const AggregationSnapshot>(&a, 1), {});
    ASSERT_TRUE(out);
    EXPECT_EQ(out.value(), "9223372036854775798\n");
}

TEST(AggFormat, PrintaDistributionIgnoresTheConversion) {
    std::vector<int64_t> q;
    aggregate_update(AggFunc::Quantize, {}, q, 1);
    const auto a = make(1, AggFunc::Quantize, {{{str("k")}, q}});
    auto out = printa_format(test::parsed("%s:%@d\n"), std::span<const AggregationSnapshot>(&a, 1), {});
    ASSERT_TRUE(out);
    EXPECT_EQ(out.value().rfind("k:\n" + spaces(11) + "value  ----", 0), 0u);
    EXPECT_EQ(out.value().substr(out.value().size() - 2), "\n\n");
}

TEST(AggFormat, PrintaCountIsUnsigned) {
    const auto a = make(1, AggFunc::Count, {{{}, {-1}}});
    auto out = printa_format(test::parsed("%@d"), std::span<const AggregationSnapshot>(&a, 1), {});
    ASSERT_TRUE(out);
    EXPECT_EQ(out.value(), "18446744073709551615");
}

TEST(AggFormat, StackKeys) {
    const uint64_t pcs[] = {0x10, 0};
    const auto a = make(1, AggFunc::Count, {{{Value::stack(pcs)}, {4}}});
    AggPrintOptions print;
    print.resolvers.kernel_symbol = [](uint64_t) -> std::optional<Symbol> { return Symbol{"unix", "idle", 0}; };
    EXPECT_EQ(print_aggregation(a, {}, print), "\n\n" + spaces(14) + "unix`idle\n" + spaces(16) + "4\n");
}

TEST(AggFormat, AggHist) {
    const auto a = make(1, AggFunc::Count, {{{str("b")}, {3}}, {{str("a")}, {1}}});
    AggPrintOptions print;
    print.hist = true;
    // The header's first column spans the keys (16 + 1 for a string); string
    // keys are right-aligned in 16 columns; one bar scale for all rows.
    const std::string expected = "\n\n" + spaces(14) + "key  ------------- Distribution ------------- count    \n" +
                                 spaces(16) + "a |" + std::string(10, '@') + spaces(30) + " 1        \n" + spaces(16) +
                                 "b |" + std::string(30, '@') + spaces(10) + " 3        \n";
    EXPECT_EQ(print_aggregation(a, {}, print), expected);
}

TEST(AggFormat, AggPackQuantize) {
    std::vector<int64_t> q;
    aggregate_update(AggFunc::Quantize, {}, q, 1, 1);
    aggregate_update(AggFunc::Quantize, {}, q, 2, 7);
    const auto a = make(1, AggFunc::Quantize, {{{str("k")}, q}});
    AggPrintOptions print;
    print.pack = true;
    print.pack_utf8 = false;
    const std::string header = "\n\n" + spaces(14) + "key  min .----. max  | count\n";
    EXPECT_EQ(print_aggregation(a, {}, print), header + spaces(16) + "k    0 : _X : 4    | 8\n");
    print.pack_utf8 = true;
    EXPECT_EQ(print_aggregation(a, {}, print), header + spaces(16) + "k    0 : \xe2\x96\x82\xe2\x96\x87 : 4    | 8\n");
}

TEST(AggFormat, AggPackLquantize) {
    const std::vector<int64_t> params{0, 10, 5};
    std::vector<int64_t> d;
    for (int64_t v : {-1, 3, 4, 100})
        aggregate_update(AggFunc::Lquantize, params, d, v);
    const auto a = make(1, AggFunc::Lquantize, {{{}, d}}, params);
    AggPrintOptions print;
    print.pack = true;
    print.pack_utf8 = false;
    EXPECT_EQ(print_aggregation(a, {}, print), "\n\n     min .----. max      | count\n     < 0 :xx x: >= 10    | 4\n");
}

} // namespace
} // namespace dtrace::consumer
