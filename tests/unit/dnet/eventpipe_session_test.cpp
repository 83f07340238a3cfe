// eventpipe_session_test.cpp: the EventPipe client against the tests'
// diagnostics server: finding the socket of a process, a session whose
// stream the nettrace reader reads as it would the file, a runtime that
// refuses or dies mid-stream; a runtime that connects to dtrace's
// diagnostic port and waits there until the session is on.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "eventpipe_session.h"
#include "fake_diagnostics_server.h"
#include "nettrace/nettrace_reader.h"
#include "nettrace/stream_input.h"
#include "nettrace_builder.h"
#include "reverse_port.h"
#include "sample_streams.h"

namespace dtrace::dnet::ipc {
namespace {

using etw::nettrace::NetTraceReader;

// A scratch directory, and a child process whose $TMPDIR it is (the
// process a user would name with -p).
class LiveProcess : public ::testing::Test {
  protected:
    void SetUp() override {
        char pattern[] = "/tmp/dnet-ipc-XXXXXX";
        ASSERT_NE(mkdtemp(pattern), nullptr);
        directory_ = pattern;
        child_ = fork();
        ASSERT_GE(child_, 0);
        if (child_ == 0) {
            const std::string tmpdir = "TMPDIR=" + directory_;
            char *const argv[] = {const_cast<char *>("sleep"), const_cast<char *>("30"), nullptr};
            char *const envp[] = {const_cast<char *>(tmpdir.c_str()), nullptr};
            execve("/bin/sleep", argv, envp);
            _exit(127);
        }
        // The child's environment is readable once it has exec'd.
        for (int i = 0; i < 400 && !exec_done(); i++)
            usleep(5000);
    }
    void TearDown() override {
        if (child_ > 0) {
            kill(child_, SIGKILL);
            waitpid(child_, nullptr, 0);
        }
        std::string command = "rm -rf " + directory_;
        EXPECT_EQ(std::system(command.c_str()), 0);
    }
    bool exec_done() const {
        char exe[256] = {};
        const std::string link = "/proc/" + std::to_string(child_) + "/exe";
        const ssize_t n = readlink(link.c_str(), exe, sizeof exe - 1);
        return n > 0 && std::string(exe).find("sleep") != std::string::npos;
    }
    // Reads the session's stream to its end; returns the events read.
    static uint64_t read_events(EventPipeSession &session) {
        auto reader = NetTraceReader::open_input(etw::nettrace::input_from_fd(session.release_stream()), "live");
        if (!reader)
            return 0;
        uint64_t events = 0;
        for (etw::Event e; reader.value()->next(e);)
            events++;
        return events;
    }

    // As in dtrace: one thread reads the stream, which stays open until
    // another stops the session. The events read; a failed stop fails the test.
    static uint64_t read_then_stop(EventPipeSession &session) {
        uint64_t events = 0;
        std::thread reader([&] { events = read_events(session); });
        Status stopped = session.stop();
        reader.join();
        EXPECT_TRUE(stopped.ok()) << stopped.error();
        return events;
    }

    std::string directory_;
    pid_t child_ = -1;
};

const ProviderConfig kRuntime[] = {{0x1, 4, "Microsoft-Windows-DotNETRuntime", ""}};

TEST_F(LiveProcess, TheSocketIsFoundInTheProcesssTmpdir) {
    test::FakeDiagnosticsServer server(directory_, child_, {});
    Result<std::string> found = find_diagnostics_socket(child_);
    ASSERT_TRUE(found.ok()) << found.error();
    EXPECT_EQ(found.value(), "/proc/" + std::to_string(child_) + "/root" + server.socket_path());
}

TEST_F(LiveProcess, AProcessWithoutASocketIsNamedAsNotDotNet) {
    Result<std::string> found = find_diagnostics_socket(child_);
    ASSERT_FALSE(found.ok());
    EXPECT_EQ(found.error(), "process " + std::to_string(child_) + " has no .NET diagnostics socket in " + directory_ +
                                 " (not a .NET process, or its runtime's diagnostics are disabled)");
}

TEST_F(LiveProcess, ASessionStreamsWhatTheFileHoldsAndStops) {
    test::ServerScript script;
    script.stream = etw::nettrace::fixture::sample_stream(5, true);
    test::FakeDiagnosticsServer server(directory_, child_, script);
    Result<EventPipeSession> session = EventPipeSession::start(server.socket_path(), kRuntime, 64, true);
    ASSERT_TRUE(session.ok()) << session.error();
    EXPECT_EQ(session.value().id(), script.session_id);
    EXPECT_EQ(read_then_stop(session.value()), etw::nettrace::fixture::kSampleEvents);

    const std::vector<std::vector<uint8_t>> commands = server.commands();
    ASSERT_EQ(commands.size(), 2u);
    EXPECT_EQ(commands[0], collect_tracing2(64, true, kRuntime));
    EXPECT_EQ(commands[1], stop_tracing(script.session_id));
}

TEST_F(LiveProcess, ARefusalIsReportedWithItsMeaning) {
    test::ServerScript script;
    script.refuse_with = 0x80131385;
    test::FakeDiagnosticsServer server(directory_, child_, script);
    Result<EventPipeSession> session = EventPipeSession::start(server.socket_path(), kRuntime, 64, false);
    ASSERT_FALSE(session.ok());
    EXPECT_EQ(session.error(), "cannot start an EventPipe session on " + server.socket_path() +
                                   ": the runtime does not know the command (DS_IPC_E_UNKNOWN_COMMAND)");
}

TEST_F(LiveProcess, ARuntimeThatDiesMidStreamEndsTheReadWithWhatCameBefore) {
    test::ServerScript script;
    script.stream = etw::nettrace::fixture::sample_stream(5, false);
    script.stop_streaming_after = script.stream.size() * 2 / 3;
    test::FakeDiagnosticsServer server(directory_, child_, script);
    Result<EventPipeSession> session = EventPipeSession::start(server.socket_path(), kRuntime, 64, false);
    ASSERT_TRUE(session.ok()) << session.error();
    EXPECT_LT(read_events(session.value()), etw::nettrace::fixture::kSampleEvents);
    EXPECT_FALSE(session.value().stop().ok()); // nobody listens any more
}

TEST_F(LiveProcess, ARuntimeAtThePortWaitsUntilTheSessionIsOnAndSoSeesItsStartup) {
    Result<std::unique_ptr<ReversePort>> port = ReversePort::open(child_);
    ASSERT_TRUE(port.ok()) << port.error();
    const std::string entry = port.value()->environment_entry();
    test::ServerScript script;
    script.stream = etw::nettrace::fixture::sample_stream(5, true);
    script.stream_after_start = etw::nettrace::fixture::NetTraceBuilder({}).finish(); // its startup events gone
    test::FakeDiagnosticsServer server(directory_, child_, script,
                                       test::ConnectPort{entry.substr(0, entry.find(',')), true});
    ASSERT_TRUE(port.value()->wait_for_target(5000));
    EXPECT_FALSE(server.wait_until_running(0)); // held at its startup

    const Connector runtime = port.value()->connector(5000);
    Result<EventPipeSession> session = EventPipeSession::start(runtime, kRuntime, 64, false);
    ASSERT_TRUE(session.ok()) << session.error();
    EXPECT_FALSE(server.wait_until_running(0));
    Status resumed = resume_runtime_startup(runtime);
    ASSERT_TRUE(resumed.ok()) << resumed.error();
    EXPECT_TRUE(server.wait_until_running(5000));
    EXPECT_EQ(read_then_stop(session.value()), etw::nettrace::fixture::kSampleEvents);

    const std::vector<std::vector<uint8_t>> commands = server.commands();
    ASSERT_EQ(commands.size(), 3u);
    EXPECT_EQ(commands[0], collect_tracing2(64, false, kRuntime));
    EXPECT_EQ(commands[1], resume_runtime());
    EXPECT_EQ(commands[2], stop_tracing(script.session_id));
}

TEST_F(LiveProcess, ASessionStartedAfterTheProgramRunsMissesItsStartup) {
    test::ServerScript script;
    script.stream = etw::nettrace::fixture::sample_stream(5, true);
    script.stream_after_start = etw::nettrace::fixture::NetTraceBuilder({}).finish();
    test::FakeDiagnosticsServer server(directory_, child_, script);
    Result<EventPipeSession> session = EventPipeSession::start(server.socket_path(), kRuntime, 64, false);
    ASSERT_TRUE(session.ok()) << session.error();
    EXPECT_EQ(read_then_stop(session.value()), 0u);
}

TEST_F(LiveProcess, OtherRuntimesAtThePortAreResumedAtOnce) {
    Result<std::unique_ptr<ReversePort>> port = ReversePort::open(child_);
    ASSERT_TRUE(port.ok()) << port.error();
    const std::string entry = port.value()->environment_entry();
    // A child of the program, which inherited its environment.
    test::FakeDiagnosticsServer child(directory_, child_ + 1, {},
                                      test::ConnectPort{entry.substr(0, entry.find(',')), true});
    EXPECT_TRUE(child.wait_until_running(5000));
    EXPECT_FALSE(port.value()->wait_for_target(0));
    // The port holds the resumed runtime's later connections open, which the
    // fake runtime's thread waits on: closing the port first lets it end.
    port.value().reset();
}

TEST_F(LiveProcess, ThePortLetsGoOfTheConnectionsOfRuntimesThatEnd) {
    Result<std::unique_ptr<ReversePort>> port = ReversePort::open(child_);
    ASSERT_TRUE(port.ok()) << port.error();
    const std::string entry = port.value()->environment_entry();
    auto child = std::make_unique<test::FakeDiagnosticsServer>(
        directory_, child_ + 1, test::ServerScript{}, test::ConnectPort{entry.substr(0, entry.find(',')), true});
    ASSERT_TRUE(child->wait_until_running(5000));
    // Resumed, the runtime connects again for its next command: held.
    for (int i = 0; i < 500 && port.value()->held_connections() == 0; i++)
        usleep(10000);
    EXPECT_EQ(port.value()->held_connections(), 1u);
    child.reset(); // the runtime exits: its connection closes
    for (int i = 0; i < 500 && port.value()->held_connections() != 0; i++)
        usleep(10000);
    EXPECT_EQ(port.value()->held_connections(), 0u);
}

TEST_F(LiveProcess, ATargetThatExitsEndsTheWaitForItsConnection) {
    Result<std::unique_ptr<ReversePort>> port = ReversePort::open(child_);
    ASSERT_TRUE(port.ok()) << port.error();
    port.value()->target_exited();
    Result<int> fd = port.value()->connector(60000).open();
    ASSERT_FALSE(fd.ok());
    EXPECT_EQ(fd.error(), "the process has exited");
}

} // namespace
} // namespace dtrace::dnet::ipc
