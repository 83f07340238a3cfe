// syscall_numbers_test.cpp: tracefs names to x86-64 system call numbers.
#include <gtest/gtest.h>

#include "syscall_numbers.h"

namespace dtrace::syscall {
namespace {

TEST(SyscallNumbers, KnowsTheAbiNumbersAndTracefsNames) {
#if defined(__x86_64__)
    EXPECT_EQ(syscall_number("read"), 0);
    EXPECT_EQ(syscall_number("getppid"), 110);
    EXPECT_EQ(syscall_number("openat"), 257);
    EXPECT_EQ(syscall_number("newstat"), 4); // tracefs's name of stat
    EXPECT_EQ(syscall_number("umount"), 166);
#endif
    EXPECT_EQ(syscall_number("no_such_call"), std::nullopt);
    EXPECT_EQ(syscall_number(""), std::nullopt);
}

TEST(SyscallNumbers, KnowsCallsNewerThanTheOldestHeaders) {
#if defined(__x86_64__)
    // syscall:::entry finds them by number too (no tracepoint of their own).
    EXPECT_EQ(syscall_number("uretprobe"), 335);
    EXPECT_EQ(syscall_number("cachestat"), 451);
    EXPECT_EQ(syscall_number("mseal"), 462);
    EXPECT_EQ(syscall_number("file_setattr"), 469);
#else
    GTEST_SKIP() << "the table of newer calls is x86-64's";
#endif
}

} // namespace
} // namespace dtrace::syscall
