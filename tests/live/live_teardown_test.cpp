// live_teardown_test.cpp: a live session leaves nothing attached.
//
// dtrace runs a script of each live plugin (syscall with ustack()'s mapping
// events, sdt's tracepoints, stable providers and packet programs, pid's
// uprobes and the fast path's programs they tail-call) on a workload of our own; while it
// traces, the test reads dtrace's BPF programs, links and maps from its file
// descriptors (/proc/PID/fdinfo) and checks through libbpf's API that they
// exist; after dtrace has ended (the target's exit, SIGINT, SIGTERM or even
// SIGKILL), every one of them must be gone, and tracefs's probe lists
// unchanged.
#include <gtest/gtest.h>

#include <bpf/bpf.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <dirent.h>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <tuple>
#include <unistd.h>
#include <vector>

namespace {

using namespace std::chrono_literals;

struct KernelObjects {
    std::set<uint32_t> programs, links, maps;
    bool empty() const { return programs.empty() && links.empty() && maps.empty(); }
};

// The BPF objects process `pid` holds file descriptors of.
KernelObjects objects_of(pid_t pid) {
    KernelObjects found;
    const std::string dir = "/proc/" + std::to_string(pid) + "/fdinfo";
    DIR *d = opendir(dir.c_str());
    if (d == nullptr)
        return found;
    while (const dirent *e = readdir(d)) {
        std::ifstream info(dir + "/" + e->d_name);
        std::string line;
        while (std::getline(info, line)) {
            std::istringstream words(line);
            std::string key;
            uint32_t id = 0;
            if (!(words >> key >> id))
                continue;
            if (key == "prog_id:")
                found.programs.insert(id);
            else if (key == "link_id:")
                found.links.insert(id);
            else if (key == "map_id:")
                found.maps.insert(id);
        }
    }
    closedir(d);
    return found;
}

// Whether the kernel still has an object of that id (libbpf's API, not
// bpftool). Asked through the ids' iteration, never by opening the object:
// opening a program array by id while it is being torn down re-arms the
// kernel's deferred clearing of its entries, and one opened again while that
// clearing is pending is never freed (a leak of the kernel's, which a look
// every 50 ms at a uprobe program's array, freed only after an RCU
// tasks-trace grace period, provokes).
bool listed(int (*next_id)(uint32_t, uint32_t *), uint32_t id) {
    uint32_t next = 0;
    return id > 0 && next_id(id - 1, &next) == 0 && next == id;
}
bool program_exists(uint32_t id) {
    return listed(bpf_prog_get_next_id, id);
}
bool link_exists(uint32_t id) {
    return listed(bpf_link_get_next_id, id);
}
bool map_exists(uint32_t id) {
    return listed(bpf_map_get_next_id, id);
}

std::string program_name(uint32_t id) {
    int fd = bpf_prog_get_fd_by_id(id);
    if (fd < 0)
        return "";
    bpf_prog_info info{};
    uint32_t length = sizeof info;
    std::string name = bpf_obj_get_info_by_fd(fd, &info, &length) == 0 ? info.name : "";
    close(fd);
    return name;
}

std::string read_file(const std::string &path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// One live plugin's session: its script (filtered on $target) and the
// prefix of the BPF programs it must have loaded while it traces.
struct Session {
    const char *plugin;
    const char *script;
    std::vector<std::string> program_prefixes;
    const char *name = nullptr; // the test's, when not the plugin's
};

const Session kSessions[] = {
    // getppid's count and stack and openat:entry's count run in the kernel
    // (dtrace's programs on their own tracepoints; the ustack() walk's way
    // back and its table's marks on the mapping calls); openat:return's
    // strjoin() keeps its clause in user space (the plugin's program).
    {"syscall",
     "syscall::getppid:entry /pid == $target/ { @ = count(); @u[ustack()] = count(); } "
     "syscall::openat:entry /pid == $target/ { @o = count(); } "
     "syscall::openat:return /pid == $target/ { @r[strjoin(execname, \"!\")] = count(); }",
     {"syscall_decline", "ustack_mmap", "syscall_return", "dtrace_clauses"}},
    {"sdt",
     "sched:::on-cpu /pid == $target/ { @ = count(); } proc:::exit /pid == $target/ { @e = count(); } "
     "sdt:sched::sched_process_exit /pid == $target/ { @x = count(); } "
     "tcp:::send,udp:::receive /pid == $target/ { @n = count(); }",
     {"sdt_switch", "sdt_tracepoint", "sdt_packet_send", "sdt_packet_rece"}},
    // Every clause in the kernel (docs/fastpath.md): dtrace's programs, one
    // on sched_switch as a raw tracepoint, one by the tracepoint program's tail call.
    {"sdt",
     "sched:::on-cpu /pid == $target/ { @ = count(); } sdt:sched::sched_process_exit /pid == $target/ { @x = count(); "
     "}",
     {"sdt_tracepoint", "dtrace_clauses"},
     "sdt_fastpath"},
    // ustack() keys in the kernel at sdt probes: off-cpu's program on
    // sched_switch and hrtimer_start's by the tail call, each with its way
    // back, and the table's marks on the mapping calls.
    {"sdt",
     "sched:::off-cpu /pid == $target/ { @[ustack(4)] = count(); } "
     "sdt:timer::hrtimer_start /pid == $target/ { @t[ustack()] = count(); }",
     {"sdt_tracepoint", "sdt_declined_ev", "sdt_declined_of", "ustack_mmap", "dtrace_clauses"},
     "sdt_ustack"},
    // main's count runs in the kernel (the fast path's program, tail-called
    // by the uprobe program); getppid's stack keeps its clause in user space.
    {"pid",
     "pid$target::main:entry { @ = count(); } pid$target:libc.so.6:getppid:entry { @g[ustack(1)] = count(); }",
     {"uprobe", "dtrace_clauses"}},
};

class LiveTeardown : public ::testing::TestWithParam<std::tuple<Session, int>> {
  protected:
    void SetUp() override {
        if (geteuid() != 0)
            GTEST_SKIP() << "live tracing needs root (BPF programs, tracefs)";
        if (access(DTRACE_BINARY, X_OK) != 0 || access(SYSCALL_WORKLOAD, X_OK) != 0)
            GTEST_SKIP() << DTRACE_BINARY << " or " << SYSCALL_WORKLOAD << " is not built";
        const std::string plugin = std::string(PLUGIN_DIR) + "/" + std::get<0>(GetParam()).plugin + ".so";
        if (access(plugin.c_str(), R_OK) != 0)
            GTEST_SKIP() << plugin << " is not built";
    }

    // Starts dtrace on a workload that sleeps `sleep_ms` after one getppid.
    pid_t start_dtrace(const char *script, int sleep_ms) {
        const std::string command = std::string(SYSCALL_WORKLOAD) + " 1 sleep:" + std::to_string(sleep_ms);
        pid_t pid = fork();
        if (pid == 0) {
            // The workload inherits these: nothing of the test's output stays open.
            freopen("/dev/null", "w", stdout);
            freopen("/dev/null", "w", stderr);
            execl(DTRACE_BINARY, DTRACE_BINARY, "-qn", script, "-c", command.c_str(), static_cast<char *>(nullptr));
            _exit(127);
        }
        return pid;
    }

    // dtrace's BPF objects once it has attached (bounded wait).
    // (the programs a plugin loads as it enables probes, one at a time: until
    // every program the session names is there)
    KernelObjects wait_for_objects(pid_t pid, const Session &session) {
        KernelObjects objects;
        for (auto deadline = std::chrono::steady_clock::now() + 20s; std::chrono::steady_clock::now() < deadline;) {
            objects = objects_of(pid);
            if (!objects.links.empty() && has_programs(objects, session))
                return objects;
            std::this_thread::sleep_for(20ms);
        }
        return objects;
    }

    // Whether a program of each of the session's name prefixes is among them.
    static bool has_programs(const KernelObjects &objects, const Session &session) {
        std::vector<std::string> names;
        for (uint32_t id : objects.programs)
            names.push_back(program_name(id));
        return std::all_of(session.program_prefixes.begin(), session.program_prefixes.end(),
                           [&](const std::string &prefix) {
                               return std::any_of(names.begin(), names.end(),
                                                  [&](const std::string &name) { return name.starts_with(prefix); });
                           });
    }

    // Until `pid` is no longer stopped (traced, or stopped: 't', 'T'), bounded.
    static void wait_until_running(pid_t pid) {
        for (auto deadline = std::chrono::steady_clock::now() + 20s;
             pid > 0 && std::chrono::steady_clock::now() < deadline;) {
            const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
            const size_t end = stat.rfind(')');
            if (end == std::string::npos || end + 2 >= stat.size() || (stat[end + 2] != 't' && stat[end + 2] != 'T'))
                return;
            std::this_thread::sleep_for(10ms);
        }
    }

    int wait_exit(pid_t pid) {
        for (auto deadline = std::chrono::steady_clock::now() + 30s; std::chrono::steady_clock::now() < deadline;) {
            int status = 0;
            if (waitpid(pid, &status, WNOHANG) == pid)
                return status;
            std::this_thread::sleep_for(20ms);
        }
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        return -1;
    }

    // Objects are freed asynchronously after their last descriptor closes.
    void expect_gone(const KernelObjects &objects) {
        auto any_left = [&] {
            for (uint32_t id : objects.programs)
                if (program_exists(id))
                    return true;
            for (uint32_t id : objects.links)
                if (link_exists(id))
                    return true;
            for (uint32_t id : objects.maps)
                if (map_exists(id))
                    return true;
            return false;
        };
        for (auto deadline = std::chrono::steady_clock::now() + 10s;
             any_left() && std::chrono::steady_clock::now() < deadline;)
            std::this_thread::sleep_for(50ms);
        for (uint32_t id : objects.programs)
            EXPECT_FALSE(program_exists(id)) << "BPF program " << id << " left behind";
        for (uint32_t id : objects.links)
            EXPECT_FALSE(link_exists(id)) << "BPF link " << id << " left behind";
        for (uint32_t id : objects.maps)
            EXPECT_FALSE(map_exists(id)) << "BPF map " << id << " left behind";
    }
};

TEST_P(LiveTeardown, NothingLeftAttached) {
    const auto &[session, signal] = GetParam();
    const std::string kprobes_before = read_file("/sys/kernel/tracing/kprobe_events");
    const std::string uprobes_before = read_file("/sys/kernel/tracing/uprobe_events");
    // With a signal the target sleeps long: the signal, not its exit, ends
    // dtrace. Without, it sleeps long enough (2 s) for the checks below to see
    // dtrace's objects before the exit takes them away on a loaded machine
    // (300 ms once lost that race in CI).
    pid_t dtrace = start_dtrace(session.script, signal == 0 ? 2000 : 20000);
    KernelObjects objects = wait_for_objects(dtrace, session);
    ASSERT_FALSE(objects.links.empty()) << "dtrace attached nothing";
    ASSERT_FALSE(objects.programs.empty());
    // What the test looks for exists while dtrace runs (so the check can fail).
    for (uint32_t id : objects.programs)
        EXPECT_TRUE(program_exists(id));
    EXPECT_TRUE(has_programs(objects, session)) << "not every program " << session.plugin << " loads while it traces";
    for (uint32_t id : objects.links)
        EXPECT_TRUE(link_exists(id));
    // The target, which dtrace may leave running when it is signalled.
    pid_t target = 0;
    std::istringstream(
        read_file("/proc/" + std::to_string(dtrace) + "/task/" + std::to_string(dtrace) + "/children")) >>
        target;
    // dtrace releases its -c target once tracing has started (its signal
    // handlers in place): before that, a signal ends it as any process.
    wait_until_running(target);
    if (signal != 0)
        kill(dtrace, signal);
    const int status = wait_exit(dtrace);
    if (target > 0)
        kill(target, SIGKILL);
    if (signal == SIGKILL) {
        EXPECT_TRUE(WIFSIGNALED(status));
    } else {
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
    }
    expect_gone(objects);
    EXPECT_EQ(read_file("/sys/kernel/tracing/kprobe_events"), kprobes_before);
    EXPECT_EQ(read_file("/sys/kernel/tracing/uprobe_events"), uprobes_before);
}

std::string ending_name(int signal) {
    switch (signal) {
    case SIGINT:
        return "Sigint";
    case SIGTERM:
        return "Sigterm";
    case SIGKILL:
        return "Sigkill";
    default:
        return "TargetExits";
    }
}

INSTANTIATE_TEST_SUITE_P(Endings, LiveTeardown,
                         ::testing::Combine(::testing::ValuesIn(kSessions),
                                            ::testing::Values(0, SIGINT, SIGTERM, SIGKILL)),
                         [](const ::testing::TestParamInfo<std::tuple<Session, int>> &info) {
                             const Session &session = std::get<0>(info.param);
                             return std::string(session.name ? session.name : session.plugin) + "_" +
                                    ending_name(std::get<1>(info.param));
                         });

} // namespace
