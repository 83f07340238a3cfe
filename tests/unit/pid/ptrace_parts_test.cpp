// ptrace_parts_test.cpp: the pid provider's ptrace fallback (plugins/pid/ptrace):
// the records its hits make, -x pidbackend, and its tracer on a child of the
// test that calls a function whose first instruction is rip-relative (run
// out of line, relocated), with the text as it was after the detach.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "ptrace/hit_record.h"
#include "ptrace/pid_backend.h"
#include "ptrace/ptrace_tracer.h"

namespace dtrace::pid::ptrace_backend {
namespace {

live_record header_of(const std::vector<uint8_t> &record) {
    live_record header;
    std::memcpy(&header, record.data(), sizeof header);
    return header;
}

HitContext sample_hit() {
    HitContext hit;
    hit.pid = 42;
    hit.tid = 43;
    hit.comm = "target";
    hit.regs.rdi = 1, hit.regs.rsi = 2, hit.regs.rdx = 3, hit.regs.rcx = 4, hit.regs.r8 = 5, hit.regs.r9 = 6;
    hit.regs.rax = 99;
    hit.regs.rip = 0x401000;
    hit.regs.rsp = 0x7000;
    return hit;
}

// A fake stack: word i at 0x7000 + 8 * i is 100 + i.
size_t read_fake_stack(uint64_t address, void *buffer, size_t length) {
    for (size_t i = 0; i < length / 8; ++i) {
        const uint64_t word = 100 + (address - 0x7000) / 8 + i;
        std::memcpy(static_cast<uint8_t *>(buffer) + 8 * i, &word, 8);
    }
    return length;
}

TEST(HitRecord, EntryArgumentsAreTheArgumentRegisters) {
    HitConfig config{true, LIVE_KIND_UPROBE_ENTRY, 3};
    const std::vector<uint8_t> record = build_hit_record(7, 0, config, sample_hit(), read_fake_stack);
    ASSERT_EQ(record.size(), sizeof(live_record)); // no tail unless asked
    const live_record header = header_of(record);
    EXPECT_EQ(header.slot, 7u);
    EXPECT_EQ(header.pid, 42u);
    EXPECT_EQ(header.tid, 43u);
    EXPECT_STREQ(header.comm, "target");
    EXPECT_EQ(header.size, sizeof(live_record));
    EXPECT_EQ(header.args[0], 1u);
    EXPECT_EQ(header.args[2], 3u);
    EXPECT_EQ(header.args[3], 0u); // past nargs
}

TEST(HitRecord, ReturnGivesTheOffsetAndRax) {
    HitConfig config{true, LIVE_KIND_UPROBE_RETURN, 2};
    const live_record header = header_of(build_hit_record(1, 0x2a, config, sample_hit(), read_fake_stack));
    EXPECT_EQ(header.args[0], 0x2au);
    EXPECT_EQ(header.args[1], 99u);
}

TEST(HitRecord, TailCarriesRegistersStackArgumentsAndStack) {
    HitConfig config{true, LIVE_KIND_UPROBE_ENTRY, 8, true, 64};
    const std::vector<uint8_t> record = build_hit_record(1, 0, config, sample_hit(), read_fake_stack);
    ASSERT_EQ(record.size(), sizeof(live_record) + sizeof(uprobe_tail) + 64);
    uprobe_tail tail;
    std::memcpy(&tail, record.data() + sizeof(live_record), sizeof tail);
    EXPECT_EQ(tail.regs[UPROBE_REG_RIP], 0x401000u);
    EXPECT_EQ(tail.regs[UPROBE_REG_RDI], 1u);
    EXPECT_EQ(tail.regs[UPROBE_REG_RSP], 0x7000u);
    EXPECT_EQ(tail.stack_args[0], 101u); // the word above the return address: arg6
    EXPECT_EQ(tail.stack_args[3], 104u);
    EXPECT_EQ(tail.stack_size, 64u);
    uint64_t first = 0;
    std::memcpy(&first, record.data() + sizeof(live_record) + sizeof(uprobe_tail), 8);
    EXPECT_EQ(first, 100u);
}

// A host whose only option is the one the test sets.
std::map<std::string, std::string> g_options;
const char *test_option(dtrace_host *, const char *name) {
    auto found = g_options.find(name);
    return found == g_options.end() ? nullptr : found->second.c_str();
}

TEST(BackendMode, ReadsPidbackendAndRefusesOthers) {
    dtrace_host_ops ops{};
    ops.get_option = test_option;
    g_options.clear();
    EXPECT_EQ(backend_mode(nullptr, &ops).value(), BackendMode::Auto);
    g_options["pidbackend"] = "ptrace";
    EXPECT_EQ(backend_mode(nullptr, &ops).value(), BackendMode::Ptrace);
    g_options["pidbackend"] = "uprobe";
    EXPECT_EQ(backend_mode(nullptr, &ops).value(), BackendMode::Uprobe);
    g_options["pidbackend"] = "int3";
    live::Result<BackendMode> refused = backend_mode(nullptr, &ops);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().find("pidbackend must be auto, uprobe or ptrace, not \"int3\""), std::string::npos);
}

TEST(BackendMode, TheFallbackNoticeSaysWhyAndTheCost) {
    const std::string notice = fallback_notice("this kernel has no uprobes");
    EXPECT_NE(notice.find("use ptrace breakpoints because uprobes are not available"), std::string::npos);
    EXPECT_NE(notice.find("this kernel has no uprobes"), std::string::npos);
    EXPECT_NE(notice.find("microseconds per hit"), std::string::npos);
}

// The probed function: its first instruction reads a global through rip.
volatile long g_total = 0;
__attribute__((noinline)) void add_to_total(long value) {
    g_total = g_total + value;
}
constexpr long kCalls = 1000;
constexpr long kExpectedTotal = kCalls * (kCalls - 1) / 2;

// The file offset of `address` in this executable (the child maps it alike).
uint64_t file_offset_of(uint64_t address, std::string &path) {
    std::ifstream maps("/proc/self/maps");
    for (std::string line; std::getline(maps, line);) {
        unsigned long start = 0, end = 0, offset = 0;
        char perms[8] = {}, file[PATH_MAX] = {};
        if (std::sscanf(line.c_str(), "%lx-%lx %7s %lx %*s %*s %4095s", &start, &end, perms, &offset, file) == 5 &&
            address >= start && address < end) {
            path = file;
            return address - start + offset;
        }
    }
    return 0;
}

struct Child {
    pid_t pid = -1;
    int go = -1; // writing a byte lets it call kCalls times, then exit 0 if the total is right
};

Child start_child() {
    int fds[2];
    EXPECT_EQ(pipe(fds), 0);
    Child child;
    child.pid = fork();
    if (child.pid == 0) {
        close(fds[1]);
        char byte;
        if (read(fds[0], &byte, 1) != 1)
            _exit(2);
        for (long i = 0; i < kCalls; ++i)
            add_to_total(i);
        _exit(g_total == kExpectedTotal ? 0 : 1);
    }
    close(fds[0]);
    child.go = fds[1];
    return child;
}

// Its exit status: polled through a pidfd first, as dtrace does, so that the
// tracer thread's ptrace stops are its own. -1 if it did not exit within 20 s.
int finish_child(Child &child) {
    EXPECT_EQ(write(child.go, "g", 1), 1);
    close(child.go);
    const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, child.pid, 0));
    pollfd gone{pidfd, POLLIN, 0};
    const bool exited = poll(&gone, 1, 20000) == 1;
    close(pidfd);
    int status = 0;
    if (!exited) {
        kill(child.pid, SIGKILL);
        waitpid(child.pid, &status, 0);
        return -1;
    }
    waitpid(child.pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(PtraceTracer, FiresEachCallAndRunsTheRelocatedInstruction) {
    std::string path;
    const uint64_t offset = file_offset_of(reinterpret_cast<uint64_t>(&add_to_total), path);
    ASSERT_NE(offset, 0u);
    std::atomic<long> hits{0}, sum{0};
    TracerCallbacks callbacks;
    callbacks.deliver = [&](std::span<const uint8_t> record) {
        live_record header;
        std::memcpy(&header, record.data(), sizeof header);
        hits++;
        sum += static_cast<long>(header.args[0]);
    };
    callbacks.link_map = [](int64_t) {};
    std::vector<std::string> reports;
    callbacks.report = [&](const std::string &message) { reports.push_back(message); };
    Child child = start_child();
    {
        PtraceTracer tracer(callbacks);
        tracer.configure(3, HitConfig{true, LIVE_KIND_UPROBE_ENTRY, 1});
        const live::UprobeSite site{offset, live::uprobe_cookie(3, 0)};
        ASSERT_TRUE(tracer.attach(path, child.pid, std::span(&site, 1)));
        live::Status traced = tracer.trace(child.pid, false);
        if (!traced) {
            finish_child(child);
            GTEST_SKIP() << "ptrace is not allowed here: " << traced.error();
        }
        EXPECT_EQ(finish_child(child), 0) << "the child's total is wrong, or it died";
    }
    EXPECT_TRUE(reports.empty()) << reports.front();
    EXPECT_EQ(hits.load(), kCalls);
    EXPECT_EQ(sum.load(), kExpectedTotal);
}

TEST(PtraceTracer, StopPutsTheTextBack) {
    std::string path;
    const uint64_t offset = file_offset_of(reinterpret_cast<uint64_t>(&add_to_total), path);
    std::atomic<long> hits{0};
    TracerCallbacks callbacks;
    callbacks.deliver = [&](std::span<const uint8_t>) { hits++; };
    callbacks.link_map = [](int64_t) {};
    callbacks.report = [](const std::string &) {};
    Child child = start_child();
    {
        PtraceTracer tracer(callbacks);
        tracer.configure(0, HitConfig{true, LIVE_KIND_UPROBE_ENTRY, 1});
        const live::UprobeSite site{offset, live::uprobe_cookie(0, 0)};
        ASSERT_TRUE(tracer.attach(path, child.pid, std::span(&site, 1)));
        if (!tracer.trace(child.pid, false)) {
            finish_child(child);
            GTEST_SKIP() << "ptrace is not allowed here";
        }
        tracer.stop();
        std::ifstream status("/proc/" + std::to_string(child.pid) + "/status");
        std::string text((std::istreambuf_iterator<char>(status)), std::istreambuf_iterator<char>());
        EXPECT_NE(text.find("TracerPid:\t0\n"), std::string::npos) << text;
    }
    // An int3 left behind would kill it with SIGTRAP (exit 133).
    EXPECT_EQ(finish_child(child), 0);
    EXPECT_EQ(hits.load(), 0);
}

} // namespace
} // namespace dtrace::pid::ptrace_backend
