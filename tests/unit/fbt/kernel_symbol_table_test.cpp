// kernel_symbol_table_test.cpp: a backquoted symbol's address from kallsyms' text.
#include "kernel_symbol_table.h"

#include <gtest/gtest.h>

namespace dtrace::fbt {
namespace {

constexpr const char *kText = "ffffffff81000000 T _stext\n"
                              "ffffffff82000000 D jiffies_64\n"
                              "ffffffff82000008 D jiffies\n"
                              "ffffffffc0000000 t jiffies\t[mymod]\n"
                              "ffffffffc0000100 b counter\t[mymod]\n";

TEST(KernelSymbolTable, FindsWholeNamesOnly) {
    auto jiffies = find_kallsyms(kText, "", "jiffies");
    ASSERT_TRUE(jiffies);
    EXPECT_EQ(jiffies->address, 0xffffffff82000008ull);
    EXPECT_EQ(jiffies->type, 'D');
    EXPECT_FALSE(find_kallsyms(kText, "", "jiff"));
    EXPECT_FALSE(find_kallsyms(kText, "", "stext"));
}

TEST(KernelSymbolTable, ModuleSelects) {
    EXPECT_EQ(find_kallsyms(kText, "mymod", "jiffies")->address, 0xffffffffc0000000ull);
    EXPECT_EQ(find_kallsyms(kText, "vmlinux", "jiffies")->address, 0xffffffff82000008ull);
    EXPECT_FALSE(find_kallsyms(kText, "vmlinux", "counter"));
    EXPECT_EQ(find_kallsyms(kText, "", "counter")->type, 'b');
}

TEST(KernelSymbolTable, UnreadableFileFindsNothing) {
    EXPECT_FALSE(find_kernel_symbol("/nonexistent/kallsyms", "", "jiffies"));
}

} // namespace
} // namespace dtrace::fbt
