// target_process_test.cpp: -c commands stop at exec with the new image and
// the environment plugins added; -p processes stop until released; exits
// are reported as DTrace words them. Every process here is our own child,
// killed at the end of its test (bounded: the longest sleeps 30 s).
#include "cli/target_process.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using dtrace::Status;
using dtrace::cli::TargetProcess;

// The state letter of /proc/PID/stat ('t': stopped by a tracer).
char state_of(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t paren = text.rfind(')');
    return paren == std::string::npos || paren + 2 >= text.size() ? '?' : text[paren + 2];
}

std::string exe_of(pid_t pid) {
    char buffer[PATH_MAX] = {};
    ssize_t n = readlink(("/proc/" + std::to_string(pid) + "/exe").c_str(), buffer, sizeof buffer - 1);
    return n < 0 ? "" : std::string(buffer, size_t(n));
}

// The entries of /proc/PID/environ that start with `prefix`.
std::vector<std::string> environment_of(pid_t pid, const std::string &prefix) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/environ");
    std::vector<std::string> entries;
    for (std::string entry; std::getline(in, entry, '\0');)
        if (entry.rfind(prefix, 0) == 0)
            entries.push_back(entry);
    return entries;
}

std::string real_path(const char *path) {
    char buffer[PATH_MAX] = {};
    return realpath(path, buffer) ? buffer : "";
}

// Polls until the target has gone (at most ten seconds); returns `how`.
std::string wait_exit(TargetProcess &t) {
    std::string how;
    for (int i = 0; i < 1000 && !t.poll_exited(how); i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return how;
}

TEST(TargetProcess, CreatedCommandStopsAtExecWithItsImageAndAddedEnvironment) {
    setenv("DTRACE_TARGET_INHERITED", "yes", 1);
    auto created = TargetProcess::create("sleep 30");
    ASSERT_TRUE(created) << created.reason();
    TargetProcess &t = *created;
    // Before exec it is still a copy of us, held.
    EXPECT_EQ(exe_of(t.pid()), exe_of(getpid()));
    Status execed = t.exec({{"DTRACE_TARGET_TEST", "added"}, {"PATH", "/replaced"}});
    ASSERT_TRUE(execed) << execed.reason();
    EXPECT_EQ(state_of(t.pid()), 't');
    EXPECT_EQ(exe_of(t.pid()), real_path("/usr/bin/sleep"));
    EXPECT_EQ(environment_of(t.pid(), "DTRACE_TARGET_TEST="), std::vector<std::string>{"DTRACE_TARGET_TEST=added"});
    EXPECT_EQ(environment_of(t.pid(), "PATH="), std::vector<std::string>{"PATH=/replaced"})
        << "the inherited PATH is replaced";
    EXPECT_EQ(environment_of(t.pid(), "DTRACE_TARGET_INHERITED="),
              std::vector<std::string>{"DTRACE_TARGET_INHERITED=yes"})
        << "the rest is inherited";
    t.release();
    EXPECT_NE(state_of(t.pid()), 't');
    t.kill_created();
    std::string how;
    EXPECT_TRUE(t.poll_exited(how));
}

TEST(TargetProcess, ReleasedCommandRunsToItsExit) {
    auto created = TargetProcess::create("true");
    ASSERT_TRUE(created) << created.reason();
    TargetProcess &t = *created;
    Status execed = t.exec({});
    ASSERT_TRUE(execed) << execed.reason();
    t.release();
    EXPECT_EQ(wait_exit(t), "pid " + std::to_string(t.pid()) + " has exited");
}

TEST(TargetProcess, ExitStatusAndSignalAreReported) {
    auto created = TargetProcess::create("false");
    ASSERT_TRUE(created) << created.reason();
    TargetProcess &failing = *created;
    Status execed = failing.exec({});
    ASSERT_TRUE(execed) << execed.reason();
    failing.release();
    EXPECT_EQ(wait_exit(failing), "pid " + std::to_string(failing.pid()) + " exited with status 1");

    auto created_sleep = TargetProcess::create("sleep 30");
    ASSERT_TRUE(created_sleep) << created_sleep.reason();
    TargetProcess &killed = *created_sleep;
    execed = killed.exec({});
    ASSERT_TRUE(execed) << execed.reason();
    killed.release();
    kill(killed.pid(), SIGTERM);
    EXPECT_EQ(wait_exit(killed), "pid " + std::to_string(killed.pid()) + " terminated by SIGTERM");
}

// A plugin's thread may trace a released command with ptrace (pid's
// fallback): polling for its exit must leave that thread's ptrace stops to
// it (threads of one process see each other's tracees in waitpid), and its
// exit status is still reported once it has gone.
TEST(TargetProcess, PollingLeavesAnotherThreadsPtraceStops) {
    auto created = TargetProcess::create("sleep 1");
    ASSERT_TRUE(created) << created.reason();
    TargetProcess &t = *created;
    Status execed = t.exec({});
    ASSERT_TRUE(execed) << execed.reason();
    t.release();
    bool seized = false, stopped = false, reported = false;
    std::atomic<bool> polled{false};
    std::thread tracer([&] {
        seized = ptrace(PTRACE_SEIZE, t.pid(), nullptr, nullptr) == 0 &&
                 ptrace(PTRACE_INTERRUPT, t.pid(), nullptr, nullptr) == 0;
        if (!seized)
            return;
        // Let the poller try to take the stop before this thread waits for it.
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        while (!polled)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        int status = 0;
        reported = waitpid(t.pid(), &status, __WALL | WNOHANG) == t.pid() && WIFSTOPPED(status);
        stopped = state_of(t.pid()) == 't';
        ptrace(PTRACE_DETACH, t.pid(), nullptr, nullptr);
    });
    std::string how;
    for (int i = 0; i < 30; i++) {
        EXPECT_FALSE(t.poll_exited(how)) << how;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    polled = true;
    tracer.join();
    ASSERT_TRUE(seized) << "ptrace is not allowed here";
    EXPECT_TRUE(stopped);
    EXPECT_TRUE(reported) << "the poller took the tracer's stop";
    EXPECT_EQ(wait_exit(t), "pid " + std::to_string(t.pid()) + " has exited");
}

TEST(TargetProcess, CommandThatCannotRun) {
    auto missing = TargetProcess::create("/nonexistent/prog");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.reason(), "failed to execute /nonexistent/prog: No such file or directory");
    // A directory passes access(X_OK); exec itself refuses it.
    auto directory = TargetProcess::create("/tmp");
    ASSERT_TRUE(directory) << directory.reason();
    Status execed = directory->exec({});
    EXPECT_FALSE(execed);
    EXPECT_EQ(execed.reason(), "failed to execute /tmp: Permission denied");
}

TEST(TargetProcess, GrabStopsUntilReleased) {
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        pause();
        _exit(0);
    }
    {
        auto grabbed = TargetProcess::grab(std::to_string(child));
        ASSERT_TRUE(grabbed) << grabbed.reason();
        TargetProcess &t = *grabbed;
        EXPECT_EQ(state_of(child), 't');
        t.release();
        EXPECT_NE(state_of(child), 't');
        std::string how;
        EXPECT_FALSE(t.poll_exited(how));
        kill(child, SIGKILL);
        EXPECT_EQ(wait_exit(t), "pid " + std::to_string(child) + " has exited");
    }
    waitpid(child, nullptr, 0);
}

TEST(TargetProcess, GrabRefusals) {
    auto none = TargetProcess::grab("999999999");
    ASSERT_FALSE(none);
    EXPECT_EQ(none.reason(), "failed to grab pid 999999999: No such process");
    auto bad = TargetProcess::grab("12x");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.reason(), "invalid pid: 12x");
}

} // namespace
