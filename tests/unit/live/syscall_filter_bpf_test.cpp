// syscall_filter_bpf_test.cpp: the syscall BPF programs' in-kernel filter,
// against real system calls of this test and of a child it forks: only the
// events some conjunction accepts reach the ring, and without a filter all
// of them do; the user stack bytes a record carries for ustack(), and a
// ring holding more than one drain's batch. Needs root (BPF programs,
// tracefs); skips otherwise.
#include <gtest/gtest.h>

#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <sstream>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "bpf/live_stack_tail.h"
#include "bpf_program_set.h"
#include "event_ring.h"
#include "kernel_filter.h"
#include "tracefs.h"

extern "C" {
extern const unsigned char syscall_events_bpf_object[];
extern const size_t syscall_events_bpf_object_size;
}

namespace dtrace::live {
namespace {

constexpr int kChildCalls = 100;
constexpr int kOwnCalls = 50;

class SyscallFilterBpf : public ::testing::Test {
  protected:
    void SetUp() override {
        if (geteuid() != 0)
            GTEST_SKIP() << "the BPF programs need root";
        Result<std::string> root = tracefs_root();
        if (!root)
            GTEST_SKIP() << root.error();
        BpfLoadSettings settings;
        settings.ring_bytes = 4 << 20; // more than one of EventRing's 1 MB batches
        settings.settings.wakeup_watermark = settings.ring_bytes / 4;
        auto set = BpfProgramSet::load(
            std::span<const uint8_t>(syscall_events_bpf_object, syscall_events_bpf_object_size), "syscall", settings);
        ASSERT_TRUE(set) << set.error();
        bpf_ = std::move(set.value());
    }

    // Runs getppid in a child and here, and write(fd, "", 0) in both with
    // the fds given; returns the events that reached the ring, by pid.
    std::map<uint32_t, int> run(const char *event, const live_probe_config &config, pid_t &child) {
        EXPECT_TRUE(bpf_->configure(0, config));
        auto attached = bpf_->attach_tracepoint("syscall_entry", "syscalls", event, 0);
        EXPECT_TRUE(attached) << attached.error();
        std::map<uint32_t, int> seen;
        RingCallbacks callbacks;
        callbacks.deliver = [&](std::span<const uint8_t> bytes) {
            live_record r;
            std::memcpy(&r, bytes.data(), sizeof r);
            seen[r.pid]++;
        };
        auto ring = EventRing::open(bpf_->map_fd("live_events"), bpf_->map_fd("live_drops"), 10, callbacks);
        EXPECT_TRUE(ring);
        int pipe_fds[2];
        EXPECT_EQ(pipe(pipe_fds), 0);
        child = fork();
        if (child == 0) {
            char go;
            if (read(pipe_fds[0], &go, 1) != 1)
                _exit(1);
            for (int i = 0; i < kChildCalls; ++i)
                syscall(SYS_getppid);
            _exit(0);
        }
        // The child's pid is known before it makes its calls: filters may name it.
        if (on_child_)
            on_child_(child);
        EXPECT_EQ(write(pipe_fds[1], "g", 1), 1);
        for (int i = 0; i < kOwnCalls; ++i)
            syscall(SYS_getppid);
        waitpid(child, nullptr, 0);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        bpf_->detach_all();
        ring.value()->stop();
        return seen;
    }

    static live_probe_config getppid_config(const ProbeFilter &filter) {
        live_probe_config c{};
        c.armed = 1;
        c.kind = LIVE_KIND_SYSCALL_ENTRY;
        c.filter = encode_filter(filter, 0);
        return c;
    }

    std::unique_ptr<BpfProgramSet> bpf_;
    std::function<void(pid_t)> on_child_;
};

TEST_F(SyscallFilterBpf, WithoutFilterEveryEventArrives) {
    pid_t child = 0;
    std::map<uint32_t, int> seen = run("sys_enter_getppid", getppid_config(ProbeFilter{}), child);
    EXPECT_EQ(seen[static_cast<uint32_t>(child)], kChildCalls);
    EXPECT_EQ(seen[static_cast<uint32_t>(getpid())], kOwnCalls);
}

TEST_F(SyscallFilterBpf, PidFilterKeepsOnlyThatProcess) {
    // The filter is set once the child's pid is known, before it calls.
    on_child_ = [this](pid_t child) {
        ProbeFilter f{false, {{{FilterTerm{FilterField::Pid, 0, FilterOp::Eq, child, ""}}}}};
        ASSERT_TRUE(bpf_->configure(0, getppid_config(f)));
    };
    pid_t child = 0;
    std::map<uint32_t, int> seen = run("sys_enter_getppid", getppid_config(ProbeFilter{}), child);
    EXPECT_EQ(seen[static_cast<uint32_t>(child)], kChildCalls);
    EXPECT_EQ(seen.count(static_cast<uint32_t>(getpid())), 0u);
}

TEST_F(SyscallFilterBpf, DisjunctionOfConjunctions) {
    // (pid == me && uid == my uid) || (pid != me && tid < 0): only mine.
    const int64_t me = getpid();
    ProbeFilter f{false,
                  {{{FilterTerm{FilterField::Pid, 0, FilterOp::Eq, me, ""},
                     FilterTerm{FilterField::Uid, 0, FilterOp::Eq, static_cast<int64_t>(getuid()), ""}}},
                   {{FilterTerm{FilterField::Pid, 0, FilterOp::Ne, me, ""},
                     FilterTerm{FilterField::Tid, 0, FilterOp::Lt, 0, ""}}}}};
    pid_t child = 0;
    std::map<uint32_t, int> seen = run("sys_enter_getppid", getppid_config(f), child);
    EXPECT_EQ(seen[static_cast<uint32_t>(getpid())], kOwnCalls);
    EXPECT_EQ(seen.count(static_cast<uint32_t>(child)), 0u);
}

TEST_F(SyscallFilterBpf, ExecnameFilter) {
    char comm[16] = {};
    ASSERT_EQ(prctl(PR_GET_NAME, comm), 0);
    ProbeFilter f{false, {{{FilterTerm{FilterField::Execname, 0, FilterOp::Eq, 0, comm}}}}};
    pid_t child = 0;
    on_child_ = [](pid_t) {};
    std::map<uint32_t, int> seen = run("sys_enter_getppid", getppid_config(f), child);
    // The child has the same name: both arrive; a different name passes nothing.
    EXPECT_EQ(seen[static_cast<uint32_t>(getpid())], kOwnCalls);
    EXPECT_EQ(seen[static_cast<uint32_t>(child)], kChildCalls);
    ProbeFilter other{false, {{{FilterTerm{FilterField::Execname, 0, FilterOp::Eq, 0, "no-such-name"}}}}};
    seen = run("sys_enter_getppid", getppid_config(other), child);
    EXPECT_TRUE(seen.empty());
}

TEST_F(SyscallFilterBpf, ArgumentFilter) {
    // write(fd, "", 0) on two descriptors: only fd == the first passes.
    int a = open("/dev/null", O_WRONLY);
    int b = open("/dev/null", O_WRONLY);
    ASSERT_GE(a, 0);
    ASSERT_GE(b, 0);
    live_probe_config c{};
    c.armed = 1;
    c.kind = LIVE_KIND_SYSCALL_ENTRY;
    c.nargs = 3;
    c.filter = encode_filter(ProbeFilter{false,
                                         {{{FilterTerm{FilterField::Arg, 0, FilterOp::Eq, a, ""},
                                            FilterTerm{FilterField::Pid, 0, FilterOp::Eq, getpid(), ""}}}}},
                             3);
    ASSERT_TRUE(bpf_->configure(0, c));
    ASSERT_TRUE(bpf_->attach_tracepoint("syscall_entry", "syscalls", "sys_enter_write", 0));
    int count = 0;
    RingCallbacks callbacks;
    callbacks.deliver = [&](std::span<const uint8_t> bytes) {
        live_record r;
        std::memcpy(&r, bytes.data(), sizeof r);
        EXPECT_EQ(r.args[0], static_cast<uint64_t>(a));
        EXPECT_EQ(r.args[2], 0u);
        count++;
    };
    auto ring = EventRing::open(bpf_->map_fd("live_events"), bpf_->map_fd("live_drops"), 10, callbacks);
    ASSERT_TRUE(ring);
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(write(a, "", 0), 0);
    for (int i = 0; i < 2; ++i)
        ASSERT_EQ(write(b, "", 0), 0);
    bpf_->detach_all();
    ring.value()->stop();
    EXPECT_EQ(count, 3);
    close(a);
    close(b);
}

// What a getppid record of this process carries for ustack().
struct UserStackCopy {
    uint32_t tid;
    uint64_t sp;
    uint32_t bytes;
};

// The stack's start of this process (/proc/self/stat's 28th field).
uint64_t main_stack_start() {
    std::ifstream in("/proc/self/stat");
    std::string line((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::istringstream fields(line.substr(line.rfind(')') + 2)); // after the command's name: field 3 on
    std::string field;
    for (int i = 3; i <= 28 && fields >> field; ++i) {
    }
    return std::stoull(field);
}

TEST_F(SyscallFilterBpf, UserStackCopyEndsAtTheMainThreadsStackStart) {
    live_probe_config c =
        getppid_config(ProbeFilter{false, {{{FilterTerm{FilterField::Pid, 0, FilterOp::Eq, getpid(), ""}}}}});
    c.stacks = LIVE_STACK_USER;
    c.user_stack_bytes = LIVE_USER_STACK_MAX;
    ASSERT_TRUE(bpf_->configure(0, c));
    ASSERT_TRUE(bpf_->attach_tracepoint("syscall_entry", "syscalls", "sys_enter_getppid", 0));
    std::vector<UserStackCopy> copies;
    RingCallbacks callbacks;
    callbacks.deliver = [&](std::span<const uint8_t> bytes) {
        live_record r;
        live_stack_tail tail;
        std::memcpy(&r, bytes.data(), sizeof r);
        ASSERT_GE(bytes.size(), sizeof r + sizeof tail); // no captures: the tail follows the record
        std::memcpy(&tail, bytes.data() + sizeof r, sizeof tail);
        copies.push_back(UserStackCopy{r.tid, tail.regs[UPROBE_REG_RSP], tail.user_bytes});
    };
    uint64_t drops = 0;
    callbacks.report_drops = [&](uint32_t, uint64_t count) { drops += count; };
    auto ring = EventRing::open(bpf_->map_fd("live_events"), bpf_->map_fd("live_drops"), 10, callbacks);
    ASSERT_TRUE(ring);
    // A thread's records first, more than one batch of them (8 KB each),
    // left in the ring until stop() drains it; then the main thread's.
    constexpr int kThreadCalls = 300;
    std::thread([] {
        for (int i = 0; i < kThreadCalls; ++i)
            syscall(SYS_getppid);
    }).join();
    syscall(SYS_getppid);
    bpf_->detach_all();
    ring.value()->stop();
    EXPECT_EQ(drops, 0u);
    ASSERT_EQ(copies.size(), kThreadCalls + 1u);
    // Another thread's stack is copied as before (8 KB when readable).
    for (int i = 0; i < kThreadCalls; ++i)
        EXPECT_GE(copies[i].bytes, 4096u) << i;
    // The main thread's stops a little above the stack's start: no more
    // than the next of the copy's sizes, never short of the start.
    const UserStackCopy &main_copy = copies.back();
    EXPECT_EQ(main_copy.tid, static_cast<uint32_t>(syscall(SYS_gettid)));
    const uint64_t start = main_stack_start();
    ASSERT_GT(start, main_copy.sp);
    EXPECT_GE(main_copy.bytes, std::min<uint64_t>(start - main_copy.sp, LIVE_USER_STACK_MAX));
    if (start - main_copy.sp + 256 <= LIVE_USER_STACK_MAX / 2)
        EXPECT_LT(main_copy.bytes, static_cast<uint32_t>(LIVE_USER_STACK_MAX));
}

} // namespace
} // namespace dtrace::live
