// recursion_misses_test.cpp: firings the kernel skips, counted. The syscall
// plugin's entry program runs at this test's getppid calls and at timer
// interrupts (an unarmed slot: it returns at once); a timer interrupt during
// a getppid program finds a tracing program running on the CPU, and the
// kernel skips the timer's run. RecursionMisses reports each skip once,
// however often its program is watched. Needs root (BPF programs, tracefs);
// skips otherwise.
#include <gtest/gtest.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <chrono>
#include <linux/bpf.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpf_program_set.h"
#include "recursion_misses.h"
#include "tracefs.h"

extern "C" {
extern const unsigned char syscall_events_bpf_object[];
extern const size_t syscall_events_bpf_object_size;
}

namespace dtrace::live {
namespace {

uint64_t kernel_count(int program_fd) {
    bpf_prog_info info{};
    uint32_t length = sizeof info;
    EXPECT_EQ(bpf_obj_get_info_by_fd(program_fd, &info, &length), 0);
    return info.recursion_misses;
}

TEST(RecursionMisses, TimerFiringsSkippedDuringSystemCallsAreCountedOnce) {
    if (geteuid() != 0)
        GTEST_SKIP() << "the BPF programs need root";
    Result<std::string> root = tracefs_root();
    if (!root)
        GTEST_SKIP() << root.error();
    RecursionMisses misses;
    BpfLoadSettings settings;
    settings.ring_bytes = 1 << 16; // full soon: the program runs on, counting ring drops
    settings.misses = &misses;
    auto set = BpfProgramSet::load(std::span<const uint8_t>(syscall_events_bpf_object, syscall_events_bpf_object_size),
                                   "syscall", settings);
    ASSERT_TRUE(set) << set.error();
    BpfProgramSet &bpf = *set.value();
    live_probe_config armed{};
    armed.armed = 1;
    armed.kind = LIVE_KIND_SYSCALL_ENTRY;
    ASSERT_TRUE(bpf.configure(0, armed));
    auto calls = bpf.attach_tracepoint("syscall_entry", "syscalls", "sys_enter_getppid", 0);
    ASSERT_TRUE(calls) << calls.error();
    auto timers = bpf.attach_tracepoint("syscall_entry", "timer", "hrtimer_expire_entry", 1);
    if (!timers)
        GTEST_SKIP() << timers.error();
    const int program = bpf_program__fd(bpf.program("syscall_entry"));
    misses.watch(std::span<const int>(&program, 1)); // watched since its load: counted once

    uint64_t taken = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (taken == 0 && std::chrono::steady_clock::now() < deadline) {
        for (int i = 0; i < 100000; ++i)
            syscall(SYS_getppid);
        taken += misses.take();
    }
    bpf.detach_all();
    taken += misses.take();
    EXPECT_GT(taken, 0u) << "no timer firing skipped in 10 s of system calls";
    EXPECT_EQ(taken, kernel_count(program));
    EXPECT_EQ(misses.take(), 0u);
}

} // namespace
} // namespace dtrace::live
