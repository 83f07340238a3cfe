// basename(), dirname(), cleanpath(): DTrace's results, quirks included.
#include "dif_test_util.h"

#include <gtest/gtest.h>

namespace dtrace::dif {
namespace {

using test::call_text;
using test::Runner;
using test::S;

std::string call_string(std::string_view name, std::string_view path) {
    Runner r;
    uint64_t a = r.run(call_text(name, {S(std::string(path))}));
    EXPECT_EQ(r.fault.kind, FaultKind::None);
    return r.string_at(a);
}

TEST(PathSubr, Basename) {
    EXPECT_EQ(call_string("basename", "/usr/lib/libc.so.1"), "libc.so.1");
    EXPECT_EQ(call_string("basename", "/usr/lib/"), "lib");
    EXPECT_EQ(call_string("basename", "//a//"), "a");
    EXPECT_EQ(call_string("basename", "lib"), "lib");
    EXPECT_EQ(call_string("basename", "/"), "/");
    EXPECT_EQ(call_string("basename", "///"), "/");
    EXPECT_EQ(call_string("basename", ""), ".");
    EXPECT_EQ(call_string("basename", ".."), "..");
}

TEST(PathSubr, Dirname) {
    EXPECT_EQ(call_string("dirname", "/usr/lib/libc.so.1"), "/usr/lib");
    EXPECT_EQ(call_string("dirname", "/usr/lib/"), "/usr");
    EXPECT_EQ(call_string("dirname", "a//b//"), "a");
    EXPECT_EQ(call_string("dirname", "lib"), ".");
    EXPECT_EQ(call_string("dirname", "/a"), "/");
    EXPECT_EQ(call_string("dirname", "//a"), "/");
    EXPECT_EQ(call_string("dirname", "/"), "/");
    EXPECT_EQ(call_string("dirname", ""), ".");
}

TEST(PathSubr, Cleanpath) {
    EXPECT_EQ(call_string("cleanpath", "/foo/../bar"), "/bar");
    EXPECT_EQ(call_string("cleanpath", "/foo/./bar"), "/foo/bar");
    EXPECT_EQ(call_string("cleanpath", "//foo//bar//"), "/foo/bar/");
    EXPECT_EQ(call_string("cleanpath", "/a/b/../../c"), "/c");
    EXPECT_EQ(call_string("cleanpath", "/foo/..bar"), "/foo/..bar");
    EXPECT_EQ(call_string("cleanpath", "/foo/.bar"), "/foo/.bar");
    EXPECT_EQ(call_string("cleanpath", "/foo/"), "/foo/");
    EXPECT_EQ(call_string("cleanpath", "plain"), "plain");
}

// Behaviour that follows DTrace rather than a file system.
TEST(PathSubr, CleanpathQuirks) {
    EXPECT_EQ(call_string("cleanpath", "/foo/bar/.."), "/foo/");
    EXPECT_EQ(call_string("cleanpath", "/a/.."), "/");
    EXPECT_EQ(call_string("cleanpath", "/.."), "/");
    EXPECT_EQ(call_string("cleanpath", "a/../b"), "/b");
    EXPECT_EQ(call_string("cleanpath", "/foo/."), "/foo/.");
}

TEST(PathSubr, CleanpathStopsBeforeStrsize) {
    VmConfig c;
    c.strsize = 10;
    Runner r(c);
    // It keeps room for "/..c" and the NUL: at most 5 characters here.
    EXPECT_EQ(r.string_at(r.run(call_text("cleanpath", {S("/abcdefgh")}))), "/abcd");
}

TEST(PathSubr, ResultsAreBoundedByStrsize) {
    VmConfig c;
    c.strsize = 4;
    Runner r(c);
    // Arguments are read up to strsize characters ("/abc"), results hold strsize - 1.
    EXPECT_EQ(r.string_at(r.run(call_text("basename", {S("/abcdef")}))), "abc");
    EXPECT_EQ(r.string_at(r.run(call_text("dirname", {S("/ab/cdef")}))), "/"); // of "/ab/"
}

} // namespace
} // namespace dtrace::dif
