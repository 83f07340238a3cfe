// function_catalog_test.cpp: the kernel function list's parsers and filters.
#include "function_catalog.h"

#include <gtest/gtest.h>

namespace dtrace::fbt {
namespace {

TEST(FunctionCatalog, FilterFunctionsNameTheirModules) {
    auto functions = parse_filter_functions("vfs_read\nnfs_open [nfs]\n\n  \next4_fill_super [ext4]\n");
    ASSERT_EQ(functions.size(), 3u);
    EXPECT_EQ(functions[0], (KernelFunction{"vmlinux", "vfs_read"}));
    EXPECT_EQ(functions[1], (KernelFunction{"nfs", "nfs_open"}));
    EXPECT_EQ(functions[2], (KernelFunction{"ext4", "ext4_fill_super"}));
}

TEST(FunctionCatalog, KallsymsKeepsOnlyFunctionEntries) {
    auto functions = parse_kallsyms_functions("ffffffff81000000 T _stext\n"
                                              "ffffffff816b89e0 t __pfx_vfs_read\n"
                                              "ffffffff816b89f0 T vfs_read\n"
                                              "ffffffff816b9000 t helper.cold\n"
                                              "ffffffff816b9100 t helper.isra.0\n"
                                              "ffffffff82000000 D jiffies\n"
                                              "ffffffffa0000000 t ftrace_trampoline\t[__builtin__ftrace]\n"
                                              "ffffffffa0001000 t bpf_prog_6deef7357e7b4530\t[bpf]\n"
                                              "ffffffffc0000000 t nfs_open\t[nfs]\n"
                                              "garbage\n");
    ASSERT_EQ(functions.size(), 3u);
    EXPECT_EQ(functions[0].name, "vfs_read");
    EXPECT_EQ(functions[1].name, "helper.isra.0");
    EXPECT_EQ(functions[2], (KernelFunction{"nfs", "nfs_open"}));
}

TEST(FunctionCatalog, BlacklistIsRemovedAndDuplicatesMerged) {
    std::vector<KernelFunction> functions = {
        {"vmlinux", "vfs_read"}, {"vmlinux", "do_int3"}, {"vmlinux", "vfs_read"}, {"nfs", "nfs_open"}};
    sort_unique(functions);
    remove_blacklisted(functions, parse_blacklist("0xffffffff81000000-0xffffffff81000010\tdo_int3\nnonsense\n"));
    ASSERT_EQ(functions.size(), 2u);
    EXPECT_EQ(functions[0], (KernelFunction{"nfs", "nfs_open"}));
    EXPECT_EQ(functions[1], (KernelFunction{"vmlinux", "vfs_read"}));
}

TEST(FunctionCatalog, FallsBackToKallsymsAndFinds) {
    const std::string dir = ::testing::TempDir();
    const std::string kallsyms = dir + "/fbt_kallsyms";
    FILE *f = fopen(kallsyms.c_str(), "w");
    ASSERT_NE(f, nullptr);
    fputs("ffffffff816b89f0 T vfs_read\nffffffffc0000000 t nfs_open\t[nfs]\n", f);
    fclose(f);
    FunctionCatalog catalog({dir + "/no_such_filter_functions", kallsyms, dir + "/no_such_blacklist"});
    auto functions = catalog.functions();
    ASSERT_TRUE(functions) << functions.error();
    EXPECT_EQ(functions.value()->size(), 2u);
    EXPECT_NE(catalog.find("vmlinux", "vfs_read"), nullptr);
    EXPECT_EQ(catalog.find("nfs", "vfs_read"), nullptr);
}

TEST(FunctionCatalog, NoListAtAllIsAnError) {
    FunctionCatalog catalog({"/nonexistent/a", "/nonexistent/b", "/nonexistent/c"});
    auto functions = catalog.functions();
    ASSERT_FALSE(functions);
    EXPECT_NE(functions.error().find("/nonexistent/b"), std::string::npos) << functions.error();
}

} // namespace
} // namespace dtrace::fbt
