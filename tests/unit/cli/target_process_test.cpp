// target_process_test.cpp: -c commands stop at exec with the new image and
// the environment plugins added; -p processes stop until released; exits
// are reported as DTrace words them. Every process here is our own child,
// killed at the end of its test (bounded: the longest sleeps 30 s).
#include "cli/target_process.h"

#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

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
    std::string error;
    TargetProcess t = TargetProcess::create("sleep 30", error);
    ASSERT_EQ(error, "");
    // Before exec it is still a copy of us, held.
    EXPECT_EQ(exe_of(t.pid()), exe_of(getpid()));
    ASSERT_TRUE(t.exec({{"DTRACE_TARGET_TEST", "added"}, {"PATH", "/replaced"}}, error)) << error;
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
    std::string error;
    TargetProcess t = TargetProcess::create("true", error);
    ASSERT_EQ(error, "");
    ASSERT_TRUE(t.exec({}, error)) << error;
    t.release();
    EXPECT_EQ(wait_exit(t), "pid " + std::to_string(t.pid()) + " has exited");
}

TEST(TargetProcess, ExitStatusAndSignalAreReported) {
    std::string error;
    TargetProcess failing = TargetProcess::create("false", error);
    ASSERT_TRUE(failing.exec({}, error)) << error;
    failing.release();
    EXPECT_EQ(wait_exit(failing), "pid " + std::to_string(failing.pid()) + " exited with status 1");

    TargetProcess killed = TargetProcess::create("sleep 30", error);
    ASSERT_TRUE(killed.exec({}, error)) << error;
    killed.release();
    kill(killed.pid(), SIGTERM);
    EXPECT_EQ(wait_exit(killed), "pid " + std::to_string(killed.pid()) + " terminated by SIGTERM");
}

TEST(TargetProcess, CommandThatCannotRun) {
    std::string error;
    TargetProcess missing = TargetProcess::create("/nonexistent/prog", error);
    EXPECT_EQ(error, "failed to execute /nonexistent/prog: No such file or directory");
    error.clear();
    // A directory passes access(X_OK); exec itself refuses it.
    TargetProcess directory = TargetProcess::create("/tmp", error);
    ASSERT_EQ(error, "");
    EXPECT_FALSE(directory.exec({}, error));
    EXPECT_EQ(error, "failed to execute /tmp: Permission denied");
}

TEST(TargetProcess, GrabStopsUntilReleased) {
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        pause();
        _exit(0);
    }
    std::string error;
    {
        TargetProcess t = TargetProcess::grab(std::to_string(child), error);
        ASSERT_EQ(error, "");
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
    std::string error;
    TargetProcess none = TargetProcess::grab("999999999", error);
    EXPECT_EQ(error, "failed to grab pid 999999999: No such process");
    error.clear();
    TargetProcess bad = TargetProcess::grab("12x", error);
    EXPECT_EQ(error, "invalid pid: 12x");
}

} // namespace
