// json(): member and element selection, the text of each kind of value, and
// NULL for what selects nothing or is not JSON.
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
std::string json(std::string_view doc, std::string_view path) {
    Runner r;
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
    EXPECT_EQ(json(R"({"s": "a\"b\\c"})", "s"), "a\"b\\c");
    EXPECT_EQ(json(R"({"n": -1.5e3, "t": true})", "n"), "-1.5e3");
    EXPECT_EQ(json(R"({"o": {"k": [1, 2]}})", "o"), R"({"k": [1, 2]})");
}

TEST(JsonSubr, NullWhenNothingIsSelected) {
    EXPECT_EQ(json(R"({"a": 1})", "b"), "<null>");
    EXPECT_EQ(json(R"({"a": [1]})", "a[1]"), "<null>");
    EXPECT_EQ(json(R"({"a": 1})", "a.b"), "<null>");
    EXPECT_EQ(json(R"({"a": 1)", "a"), "<null>"); // unterminated
    EXPECT_EQ(json("not json", "a"), "<null>");
    EXPECT_EQ(json(std::string(200, '['), "[0]"), "<null>"); // nesting beyond the bound
}

} // namespace
} // namespace dtrace::dif
