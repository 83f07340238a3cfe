// syscall_arg_types_test.cpp: kernel argument types as D shows them.
#include <gtest/gtest.h>

#include "arg_types.h"

namespace dtrace::syscall {
namespace {

live::TracepointField field(const char *type, uint32_t size = 8, bool is_signed = false) {
    return live::TracepointField{type, "x", 16, size, is_signed, false};
}

TEST(SyscallArgTypes, KeepsWhatDKnows) {
    EXPECT_EQ(d_type_of(field("int")), "int");
    EXPECT_EQ(d_type_of(field("const char *")), "const char *");
    EXPECT_EQ(d_type_of(field("umode_t")), "umode_t");
    EXPECT_EQ(d_type_of(field("struct stat *")), "struct stat *");
    EXPECT_EQ(d_type_of(field("struct robust_list_head * *")), "struct robust_list_head **");
    EXPECT_EQ(d_type_of(field("const clockid_t")), "const clockid_t");
}

TEST(SyscallArgTypes, FallsBackToGenericTypes) {
    EXPECT_EQ(d_type_of(field("struct never_heard_of *")), "void *");
    EXPECT_EQ(d_type_of(field("const struct never_heard_of *")), "const void *");
    EXPECT_EQ(d_type_of(field("enum landlock_rule_type", 4, true)), "int");
    EXPECT_EQ(d_type_of(field("some_kernel_t", 8, false)), "unsigned long");
}

TEST(SyscallArgTypes, DeclaresItsTypes) {
    const std::string &d = syscall_d_types();
    EXPECT_NE(d.find("typedef unsigned short umode_t;"), std::string::npos);
    EXPECT_NE(d.find("struct stat;"), std::string::npos);
}

} // namespace
} // namespace dtrace::syscall
