// String subroutines: results and edge cases against DTrace's semantics.
#include "dif_test_util.h"

#include <gtest/gtest.h>

namespace dtrace::dif {
namespace {

using test::call_text;
using test::I;
using test::Runner;
using test::S;

class StringSubr : public ::testing::Test {
  protected:
    uint64_t call(std::string_view name, const std::vector<test::Arg> &args) {
        uint64_t v = r.run(call_text(name, args));
        EXPECT_EQ(r.fault.kind, FaultKind::None) << name;
        return v;
    }
    std::string call_string(std::string_view name, const std::vector<test::Arg> &args) {
        uint64_t a = call(name, args);
        return a ? r.string_at(a) : "<null>";
    }
    int64_t call_int(std::string_view name, const std::vector<test::Arg> &args) {
        return static_cast<int64_t>(call(name, args));
    }
    Runner r;
};

TEST_F(StringSubr, Strlen) {
    EXPECT_EQ(call("strlen", {S("")}), 0u);
    EXPECT_EQ(call("strlen", {S("hello")}), 5u);
}

TEST_F(StringSubr, StrlenIsBoundedByStrsize) {
    VmConfig c;
    c.strsize = 8;
    Runner small(c);
    EXPECT_EQ(small.run(call_text("strlen", {S("0123456789")})), 8u);
}

TEST_F(StringSubr, Strjoin) {
    EXPECT_EQ(call_string("strjoin", {S("foo"), S("bar")}), "foobar");
    EXPECT_EQ(call_string("strjoin", {S(""), S("")}), "");
}

TEST_F(StringSubr, StrjoinLongerThanStrsizeIsOutOfScratch) {
    VmConfig c;
    c.strsize = 8;
    Runner small(c);
    EXPECT_NE(small.run(call_text("strjoin", {S("abc"), S("defg")})), 0u); // 7 characters fit
    small.run(call_text("strjoin", {S("abcd"), S("efgh")}));
    EXPECT_EQ(small.fault.kind, FaultKind::NoScratch);
}

TEST_F(StringSubr, Substr) {
    EXPECT_EQ(call_string("substr", {S("hello"), I(1)}), "ello");
    EXPECT_EQ(call_string("substr", {S("hello"), I(1), I(3)}), "ell");
    EXPECT_EQ(call_string("substr", {S("hello"), I(0), I(100)}), "hello");
    EXPECT_EQ(call_string("substr", {S("hello"), I(5)}), "");
    EXPECT_EQ(call_string("substr", {S("hello"), I(9)}), "");
    // A negative index counts from the end.
    EXPECT_EQ(call_string("substr", {S("hello"), I(uint64_t(-2))}), "lo");
    EXPECT_EQ(call_string("substr", {S("hello"), I(uint64_t(-3)), I(2)}), "ll");
    // Before the start: the length is shortened by the overhang.
    EXPECT_EQ(call_string("substr", {S("hello"), I(uint64_t(-7)), I(4)}), "he");
    EXPECT_EQ(call_string("substr", {S("hello"), I(uint64_t(-7)), I(2)}), "");
    EXPECT_EQ(call_string("substr", {S("hello"), I(uint64_t(-7))}), "hello");
    // A negative length leaves that many characters off the end.
    EXPECT_EQ(call_string("substr", {S("hello"), I(1), I(uint64_t(-1))}), "ell");
    EXPECT_EQ(call_string("substr", {S("hello"), I(1), I(uint64_t(-9))}), "");
    // Extreme values do not overflow: (INT64_MIN + 5) + INT64_MAX leaves 4 characters.
    EXPECT_EQ(call_string("substr", {S("hello"), I(uint64_t(INT64_MIN)), I(uint64_t(INT64_MAX))}), "hell");
    EXPECT_EQ(call_string("substr", {S("hello"), I(2), I(uint64_t(INT64_MAX))}), "llo");
}

TEST_F(StringSubr, IndexAndRindex) {
    EXPECT_EQ(call_int("index", {S("hello hello"), S("llo")}), 2);
    EXPECT_EQ(call_int("rindex", {S("hello hello"), S("llo")}), 8);
    EXPECT_EQ(call_int("index", {S("hello"), S("xyz")}), -1);
    EXPECT_EQ(call_int("rindex", {S("hello"), S("xyz")}), -1);
    EXPECT_EQ(call_int("index", {S("hello"), S("hello!")}), -1);
    // Start positions.
    EXPECT_EQ(call_int("index", {S("hello hello"), S("llo"), I(3)}), 8);
    EXPECT_EQ(call_int("rindex", {S("hello hello"), S("llo"), I(7)}), 2);
    EXPECT_EQ(call_int("index", {S("hello"), S("h"), I(uint64_t(-5))}), 0); // clamped to 0
    EXPECT_EQ(call_int("index", {S("hello"), S("h"), I(5)}), -1);
    EXPECT_EQ(call_int("rindex", {S("hello"), S("o"), I(99)}), 4); // clamped to the length
    EXPECT_EQ(call_int("rindex", {S("hello"), S("o"), I(uint64_t(-1))}), -1);
}

TEST_F(StringSubr, IndexWithEmptyStringsFollowsPerl) {
    EXPECT_EQ(call_int("index", {S(""), S("")}), 0);
    EXPECT_EQ(call_int("rindex", {S(""), S("")}), 0);
    EXPECT_EQ(call_int("index", {S("abc"), S("")}), 0);
    EXPECT_EQ(call_int("rindex", {S("abc"), S("")}), 3);
    EXPECT_EQ(call_int("index", {S("abc"), S(""), I(2)}), 2);
    EXPECT_EQ(call_int("index", {S("abc"), S(""), I(10)}), 3);
    EXPECT_EQ(call_int("rindex", {S("abc"), S(""), I(uint64_t(-4))}), 0);
    EXPECT_EQ(call_int("index", {S(""), S("a")}), -1);
    EXPECT_EQ(call_int("rindex", {S(""), S("a")}), -1);
}

TEST_F(StringSubr, Strstr) {
    uint64_t s = r.run("sets %r1, \"haystack\"\nsets %r2, \"st\"\npushts %r1\npushts %r2\ncall %r3, strstr\n"
                       "sub %r3, %r3, %r1\nret %r3");
    EXPECT_EQ(s, 3u); // a pointer into the searched string
    EXPECT_EQ(call_string("strstr", {S("haystack"), S("st")}), "stack");
    EXPECT_EQ(call("strstr", {S("haystack"), S("needle")}), 0u);
    EXPECT_EQ(call_string("strstr", {S("abc"), S("")}), "abc");
    EXPECT_EQ(call_string("strstr", {S(""), S("")}), "");
}

TEST_F(StringSubr, StrchrAndStrrchr) {
    EXPECT_EQ(call_string("strchr", {S("a/b/c"), I('/')}), "/b/c");
    EXPECT_EQ(call_string("strrchr", {S("a/b/c"), I('/')}), "/c");
    EXPECT_EQ(call("strchr", {S("abc"), I('z')}), 0u);
    EXPECT_EQ(call("strrchr", {S("abc"), I('z')}), 0u);
    // The terminating NUL can be found.
    EXPECT_EQ(call_string("strchr", {S("abc"), I(0)}), "");
    uint64_t d = r.run("sets %r1, \"abc\"\nsetx %r2, 0\npushts %r1\npushtv %r2, 8\ncall %r3, strrchr\n"
                       "sub %r3, %r3, %r1\nret %r3");
    EXPECT_EQ(d, 3u);
}

TEST_F(StringSubr, ToupperAndTolower) {
    EXPECT_EQ(call_string("toupper", {S("Hello, World 1!")}), "HELLO, WORLD 1!");
    EXPECT_EQ(call_string("tolower", {S("Hello, World 1!")}), "hello, world 1!");
    EXPECT_EQ(call_string("toupper", {S("\\xe9t\\xe9")}), "\xe9T\xe9"); // bytes beyond ASCII pass through
}

TEST_F(StringSubr, StrtokWalksTokensAndThenReturnsNull) {
    EXPECT_EQ(call_string("strtok", {S("  a,b;;c  "), S(" ,;")}), "a");
    const std::string next = "sets %r2, \" ,;\"\npushts %r0\npushts %r2\ncall %r3, strtok\nret %r3";
    EXPECT_EQ(r.string_at(r.run(next)), "b");
    EXPECT_EQ(r.string_at(r.run(next)), "c");
    EXPECT_EQ(r.run(next), 0u);
    EXPECT_EQ(r.fault.kind, FaultKind::None);
    // DTrace's saved pointer is NULL now: continuing reads address 0.
    EXPECT_EQ(r.run(next), 0u);
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
    EXPECT_EQ(r.fault.address, 0u);
}

TEST_F(StringSubr, StrtokStateLastsForTheClausesOfOneFiring) {
    EXPECT_EQ(call_string("strtok", {S("x y z"), S(" ")}), "x");
    const std::string next = "sets %r2, \" \"\npushts %r0\npushts %r2\ncall %r3, strtok\nret %r3";
    r.vm.begin_clause(); // the original string is gone; strtok kept its own copy
    EXPECT_EQ(r.string_at(r.run(next)), "y");
    r.vm.begin_firing(); // a new firing starts with no string to continue
    r.vm.begin_clause();
    EXPECT_EQ(r.run(next), 0u);
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
}

TEST_F(StringSubr, StrtokWithOnlyDelimiters) {
    EXPECT_EQ(call("strtok", {S(",,,"), S(",")}), 0u);
    EXPECT_EQ(call_string("strtok", {S("abc"), S("")}), "abc");
}

TEST_F(StringSubr, ResultsAreBoundedByStrsize) {
    VmConfig c;
    c.strsize = 4;
    Runner small(c);
    EXPECT_EQ(small.string_at(small.run(call_text("toupper", {S("abcdef")}))), "ABC");
    EXPECT_EQ(small.string_at(small.run(call_text("substr", {S("abcdef"), I(1)}))), "bcd");
}

TEST_F(StringSubr, UnreadableArgumentsFault) {
    r.run("setx %r1, 0x1234\npushtv %r1, 8\ncall %r2, strlen\nret %r2");
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
    EXPECT_EQ(r.fault.address, 0x1234u);
    EXPECT_EQ(r.fault.pc, 2u);
    r.run(call_text("strjoin", {S("a"), I(0)}));
    EXPECT_EQ(r.fault.kind, FaultKind::BadAddr);
    EXPECT_EQ(r.fault.address, 0u);
}

} // namespace
} // namespace dtrace::dif
