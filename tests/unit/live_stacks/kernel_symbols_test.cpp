// kernel_symbols_test.cpp: kallsyms parsing and kernel address lookups.
#include "kernel_symbols.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace dtrace::live::stacks {
namespace {

constexpr const char *kKallsyms = "ffffffff81000000 T _stext\n"
                                  "ffffffff81000100 t do_one_initcall\n"
                                  "ffffffff81000200 D some_data\n"
                                  "ffffffffc0001000 t ext4_read [ext4]\n"
                                  "0000000000000000 T hidden_by_kptr_restrict\n"
                                  "garbage line\n"
                                  "ffffffff81000300 T\n";

TEST(KernelSymbols, NamesTextSymbolsWithModulesAndOffsets) {
    KernelSymbols symbols("/nonexistent");
    symbols.load_from(kKallsyms);
    auto s = symbols.lookup(0xffffffff81000104);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->module, "vmlinux");
    EXPECT_EQ(s->function, "do_one_initcall");
    EXPECT_EQ(s->offset, 4u);
    // Data symbols are not functions: the text symbol below still covers it.
    s = symbols.lookup(0xffffffff81000208);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->function, "do_one_initcall");
    s = symbols.lookup(0xffffffffc0001010);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->module, "ext4");
    EXPECT_EQ(s->function, "ext4_read");
    EXPECT_FALSE(symbols.lookup(0x1000));
}

TEST(KernelSymbols, NamesAModuleLoadedLaterOnceToldToReload) {
    const std::string path = testing::TempDir() + "kallsyms_reload";
    std::ofstream(path) << "ffffffffc0001000 t ext4_read [ext4]\n";
    KernelSymbols symbols(path);
    auto before = symbols.lookup(0xffffffffc0002010);
    ASSERT_TRUE(before);
    EXPECT_EQ(before->function, "ext4_read"); // the table predates the module
    std::ofstream(path) << "ffffffffc0001000 t ext4_read [ext4]\nffffffffc0002000 t dummy_xmit [dummy]\n";
    EXPECT_EQ(symbols.lookup(0xffffffffc0002010)->function, "ext4_read"); // not read again until told
    symbols.reload_later();
    auto after = symbols.lookup(0xffffffffc0002010);
    ASSERT_TRUE(after);
    EXPECT_EQ(after->module, "dummy");
    EXPECT_EQ(after->function, "dummy_xmit");
    EXPECT_EQ(after->offset, 0x10u);
    // What a lookup gave before the reload is still readable.
    EXPECT_EQ(before->module, "ext4");
    EXPECT_EQ(before->function, "ext4_read");
    std::remove(path.c_str());
}

TEST(KernelSymbols, ThisKernelsTableNamesItsSyscallEntry) {
    std::ifstream in("/proc/kallsyms");
    std::string address, type, name;
    uint64_t entry = 0;
    while (in >> address >> type >> name)
        if (name == "do_syscall_64")
            entry = std::stoull(address, nullptr, 16);
    if (entry == 0)
        GTEST_SKIP() << "/proc/kallsyms shows no address for do_syscall_64 (kptr_restrict?)";
    KernelSymbols symbols;
    auto s = symbols.lookup(entry + 1);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->module, "vmlinux");
    EXPECT_EQ(s->function, "do_syscall_64");
    EXPECT_EQ(s->offset, 1u);
}

} // namespace
} // namespace dtrace::live::stacks
