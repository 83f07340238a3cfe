// kernel_memory_test.cpp: kernel memory read through the BPF reader (root
// and a kernel that loads BPF syscall programs; skipped otherwise, saying so).
#include "kernel_memory.h"
#include "kernel_symbol_table.h"

#include <cstring>
#include <gtest/gtest.h>
#include <unistd.h>

namespace dtrace::fbt {
namespace {

TEST(KernelMemory, ReadsKernelTextAndFaultsOnHoles) {
    if (geteuid() != 0)
        GTEST_SKIP() << "reading kernel memory through BPF needs root";
    auto vfs_read = find_kernel_symbol("/proc/kallsyms", "", "vfs_read");
    if (!vfs_read || vfs_read->address == 0)
        GTEST_SKIP() << "/proc/kallsyms gives no address for vfs_read (kptr_restrict)";
    KernelMemory memory;
    uint8_t bytes[16] = {};
    const int64_t n = memory.read(vfs_read->address, bytes, sizeof bytes);
    if (n < 0 && !memory.error().empty())
        GTEST_SKIP() << memory.error();
    ASSERT_EQ(n, int64_t(sizeof bytes));
    uint8_t zero[16] = {};
    EXPECT_NE(std::memcmp(bytes, zero, sizeof bytes), 0) << "a function's code is not all zero";
    // The first page of the kernel half is never mapped.
    uint8_t byte = 0;
    EXPECT_EQ(memory.read(kKernelAddressStart, &byte, 1), -1);
}

} // namespace
} // namespace dtrace::fbt
