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

// Each {path, result} of subroutine `subr`.
void expect_results(std::string_view subr, std::initializer_list<std::pair<std::string_view, std::string_view>> cases) {
    for (const auto &[path, result] : cases)
        EXPECT_EQ(call_string(subr, path), result) << subr << "(\"" << path << "\")";
}

TEST(PathSubr, Basename) {
    expect_results("basename", {{"/usr/lib/libc.so.1", "libc.so.1"},
                                {"/usr/lib/", "lib"},
                                {"//a//", "a"},
                                {"lib", "lib"},
                                {"/", "/"},
                                {"///", "/"},
                                {"", "."},
                                {"..", ".."}});
}

TEST(PathSubr, Dirname) {
    expect_results("dirname", {{"/usr/lib/libc.so.1", "/usr/lib"},
                               {"/usr/lib/", "/usr"},
                               {"a//b//", "a"},
                               {"lib", "."},
                               {"/a", "/"},
                               {"//a", "/"},
                               {"/", "/"},
                               {"", "."}});
}

TEST(PathSubr, Cleanpath) {
    expect_results("cleanpath", {{"/foo/../bar", "/bar"},
                                 {"/foo/./bar", "/foo/bar"},
                                 {"//foo//bar//", "/foo/bar/"},
                                 {"/a/b/../../c", "/c"},
                                 {"/foo/..bar", "/foo/..bar"},
                                 {"/foo/.bar", "/foo/.bar"},
                                 {"/foo/", "/foo/"},
                                 {"plain", "plain"}});
}

// Behaviour that follows DTrace rather than a file system.
TEST(PathSubr, CleanpathQuirks) {
    expect_results("cleanpath", {{"/foo/bar/..", "/foo/"},
                                 {"/a/..", "/"},
                                 {"a/../b", "/b"},
                                 {"/foo/.", "/foo/."},
                                 // ".." past a relative start keeps the first byte written;
                                 // "/.." never wrote one: the fresh buffer's NUL.
                                 {"a/../..", "a"},
                                 {"/..", ""}});
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
