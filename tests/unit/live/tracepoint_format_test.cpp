// tracepoint_format_test.cpp: parsing tracefs `format` files.
#include <gtest/gtest.h>

#include "tracepoint_format.h"

namespace dtrace::live {
namespace {

constexpr const char *kOpenat = "name: sys_enter_openat\n"
                                "ID: 782\n"
                                "format:\n"
                                "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
                                "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
                                "\n"
                                "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
                                "\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
                                "\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
                                "\tfield:char comm[16];\toffset:32;\tsize:16;\tsigned:0;\n"
                                "\n"
                                "print fmt: \"dfd: 0x%08lx\", ((unsigned long)(REC->dfd))\n";

TEST(TracepointFormat, ReadsNameIdAndFields) {
    Result<TracepointFormat> f = parse_tracepoint_format(kOpenat);
    ASSERT_TRUE(f) << f.error();
    EXPECT_EQ(f.value().name, "sys_enter_openat");
    EXPECT_EQ(f.value().id, 782u);
    ASSERT_EQ(f.value().fields.size(), 6u);
    std::vector<const TracepointField *> own = f.value().event_fields();
    ASSERT_EQ(own.size(), 4u);
    EXPECT_EQ(own[0]->name, "__syscall_nr");
    EXPECT_TRUE(own[0]->is_signed);
    EXPECT_EQ(own[2]->type, "const char *");
    EXPECT_EQ(own[2]->name, "filename");
    EXPECT_EQ(own[2]->offset, 24u);
    EXPECT_EQ(own[2]->size, 8u);
    EXPECT_EQ(own[3]->type, "char [16]");
    EXPECT_EQ(own[3]->name, "comm");
}

TEST(TracepointFormat, RefusesWhatDoesNotParse) {
    EXPECT_FALSE(parse_tracepoint_format(""));
    EXPECT_FALSE(parse_tracepoint_format("name: x\n"));
    EXPECT_FALSE(parse_tracepoint_format("name: x\nID: twelve\n"));
    Result<TracepointFormat> bad =
        parse_tracepoint_format("name: x\nID: 1\n\tfield:int;\toffset:0;\tsize:4;\tsigned:1;\n");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error(), "format line 3: a field that does not parse");
    EXPECT_FALSE(parse_tracepoint_format("name: x\nID: 1\n\tfield:int a;\toffset:0;\n"));
    EXPECT_FALSE(parse_tracepoint_format("name: x\nID: 1\n\tfield:int a;\toffset:-1;\tsize:4;\tsigned:1;\n"));
    EXPECT_FALSE(parse_tracepoint_format("name: x\nID: 1\n\tfield:int a[;\toffset:0;\tsize:4;\tsigned:1;\n"));
}

} // namespace
} // namespace dtrace::live
