// json(): member and element selection, the text of each kind of value, and
// NULL for what selects nothing or what DTrace's one-pass machine refuses.
#include "dif_test_util.h"

#include <gtest/gtest.h>

namespace dtrace::dif {
namespace {

using test::call_text;
using test::Runner;
using test::S;

// `text` as an assembly string literal's body.
std::string escaped(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

// The selected text, or "<null>" when json() returned NULL.
std::string json(std::string_view doc, std::string_view path, uint32_t strsize = 256) {
    VmConfig config;
    config.strsize = strsize;
    Runner r(config);
    uint64_t a = r.run(call_text("json", {S(escaped(doc)), S(escaped(path))}));
    EXPECT_EQ(r.fault.kind, FaultKind::None);
    return a == 0 ? "<null>" : r.string_at(a);
}

TEST(JsonSubr, SelectsMembersAndElements) {
    EXPECT_EQ(json(R"({"a": 1, "b": "two"})", "b"), "two");
    EXPECT_EQ(json(R"({"a": {"b": {"c": 3}}})", "a.b.c"), "3");
    EXPECT_EQ(json(R"({"a": [10, {"x": "y"}, 30]})", "a[1].x"), "y");
    EXPECT_EQ(json(R"([[1, 2], [3, 4]])", "[1][0]"), "3");
}

TEST(JsonSubr, ValuesAsText) {
    EXPECT_EQ(json(R"({"s": "a\"b\\c"})", "s"), R"(a\"b\\c)"); // escapes as written
    EXPECT_EQ(json(R"({"u": "caf\u00e9"})", "u"), R"(caf\u00e9)");
    EXPECT_EQ(json(R"({"n": -1.5e3, "t": true})", "n"), "-1.5e3");
    EXPECT_EQ(json(R"({"o": {"k": [1, 2]}})", "o"), R"({"k": [1, 2]})");
}

TEST(JsonSubr, NullWhenNothingIsSelected) {
    EXPECT_EQ(json(R"({"a": 1})", "b"), "<null>");
    EXPECT_EQ(json(R"({"a": [1]})", "a[1]"), "<null>");
    EXPECT_EQ(json(R"({"a": 1})", "a.b"), "<null>");
    EXPECT_EQ(json(R"({"a": 1)", "a"), "<null>");          // the document ends within the number
    EXPECT_EQ(json(R"({"a": "x\u12g4"})", "a"), "<null>"); // \u takes four hexadecimal digits
    EXPECT_EQ(json(R"({"a": 0x10})", "a"), "<null>");
    EXPECT_EQ(json(R"({"a": 1+2})", "a"), "<null>");
    EXPECT_EQ(json(R"({"a": maybe})", "a"), "<null>");
    EXPECT_EQ(json(R"({"a": [1}, "b": 2})", "b"), "<null>"); // unbalanced while skipped
    EXPECT_EQ(json("not json", "a"), "<null>");
    EXPECT_EQ(json(std::string(200, '['), "[0]"), "<null>"); // nesting beyond the bound
}

TEST(JsonSubr, StopsAtTheSelectedValueAsDTraceDoes) {
    // Nothing after the value is read: an unterminated or malformed rest passes.
    EXPECT_EQ(json(R"({"a": 1 oops)", "a"), "1");
    EXPECT_EQ(json(R"({"a": "x", "b" 2})", "a"), "x");
    EXPECT_EQ(json(R"({"a": 1.2.3})", "a"), "1.2");
    // What comes before it is checked.
    EXPECT_EQ(json(R"({"a" 1, "b": 2})", "b"), "<null>");
}

TEST(JsonSubr, SelectorsAsDTraceSplitsThem) {
    EXPECT_EQ(json(R"([5, 6])", "1"), "6"); // a top-level array takes a bare index
    EXPECT_EQ(json(R"([5, 6])", "x"), "5"); // which reads as a number: "x" is 0
    EXPECT_EQ(json(R"({"a": [[1, 2], [3]]})", "a[0]"), "[1, 2]");
    EXPECT_EQ(json(R"({"a": [7, 8]})", "a[-1]"), "<null>");
    EXPECT_EQ(json(R"({"": 4})", ""), "4");
    EXPECT_EQ(json(R"({"a\"b": 1})", R"(a\"b)"), "1"); // keys compare as written
}

TEST(JsonSubr, LargeAndDeepDocuments) {
    // Many members skipped before the one selected, each object copied and forgotten.
    std::string doc = "{";
    for (int i = 0; i < 20; i++)
        doc += "\"k" + std::to_string(i) + "\": {\"v\": [" + std::to_string(i) + ", {\"w\": \"s\"}]}, ";
    doc += "\"last\": {\"v\": [1, {\"w\": \"found\"}]}}";
    ASSERT_GT(doc.size(), 256u);
    EXPECT_EQ(json(doc, "last.v[1].w", 4096), "found");
    EXPECT_EQ(json(doc, "k7", 4096), R"({"v": [7, {"w": "s"}]})");
    // At the default strsize the document is cut short of the value: NULL.
    EXPECT_EQ(json(doc, "last.v[1].w"), "<null>");
    // Deep nesting costs no recursion.
    std::string deep(100, '[');
    deep += "1";
    deep += std::string(100, ']');
    EXPECT_EQ(json(deep, "[0]", 4096), deep.substr(1, deep.size() - 2));
}

} // namespace
} // namespace dtrace::dif
