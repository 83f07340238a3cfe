// family_proc.cpp: proc — processes, threads and signals, over the sched,
// task, signal and syscalls tracepoints.
//
// | probe        | tracepoint                         | context / arguments                     |
// |--------------|------------------------------------|-----------------------------------------|
// | exec-success | sched:sched_process_exec           | the new image (arguments copied at exec) |
// | exec-failure | syscalls:sys_exit_execve, ret < 0  | args[0] int errno                        |
// | exit         | sched:sched_process_exit, last thread | args[0] int CLD_EXITED/KILLED/DUMPED  |
// | lwp-exit     | sched:sched_process_exit, not last | the exiting thread                       |
// | create       | task:task_newtask, not CLONE_THREAD | parent; args[0] psinfo_t * of the child |
// | lwp-create   | task:task_newtask, CLONE_THREAD    | creator; args[0..1] of the new thread    |
// | start        | raw_syscalls:sys_exit of a fork/clone returning 0 in a new process | the child |
// | lwp-start    | the same in a new thread           | the new thread                           |
// | signal-send  | signal:signal_generate             | sender; args[0..1] target, args[2] sig  |
// | signal-handle| signal:signal_deliver              | receiver; sig, siginfo_t * (NULL), handler |
//
// Not here (no tracepoint tells them): exec (before the new image:
// syscall::execve:entry gives the path), signal-clear.
#include "thread_args.h"

#include <algorithm>

namespace dtrace::sdt {

namespace {

constexpr uint64_t kCloneThread = 0x00010000; // CLONE_THREAD
constexpr int kCldExited = 1, kCldKilled = 2, kCldDumped = 3;
constexpr uint64_t kCoreDumped = 0x80;
constexpr uint64_t kSignalMask = 0x7f;
// x86-64 system call numbers of the calls that make a process or thread.
constexpr int64_t kForkCalls[] = {56 /* clone */, 57 /* fork */, 58 /* vfork */, 435 /* clone3 */};

// exit: args[2] of the program's record is the task's exit_code.
constexpr std::string_view kExitFields[] = {"group_dead"};
constexpr dtrace_arg_desc kExitArgs[] = {probe_arg("int", 0)};
bool last_thread(const ArgContext &c) {
    return c.u(0) != 0;
}
bool not_last_thread(const ArgContext &c) {
    return c.u(0) == 0;
}
size_t exit_reason(const ArgContext &c, ProbeArgs &a) {
    const uint64_t code = c.record.args[2];
    a[0] = (code & kSignalMask) == 0 ? kCldExited : (code & kCoreDumped) ? kCldDumped : kCldKilled;
    return 1;
}

constexpr std::string_view kRetFields[] = {"ret"};
constexpr dtrace_arg_desc kErrnoArgs[] = {probe_arg("int", 0)};
bool failed(const ArgContext &c) {
    return c.i(0) < 0;
}
size_t exec_errno(const ArgContext &c, ProbeArgs &a) {
    a[0] = static_cast<uint64_t>(-c.i(0));
    return 1;
}

constexpr std::string_view kNewTaskFields[] = {"pid", "clone_flags"};
constexpr dtrace_arg_desc kCreateArgs[] = {probe_arg("live_psinfo_t *", 0, "psinfo_t *")};
bool new_process(const ArgContext &c) {
    return (c.u(1) & kCloneThread) == 0;
}
bool new_thread(const ArgContext &c) {
    return (c.u(1) & kCloneThread) != 0;
}
size_t child_process(const ArgContext &c, ProbeArgs &a) {
    const auto child = static_cast<uint32_t>(c.u(0));
    ProbeArgs pair{};
    child_args(c, child, child, pair, 0);
    a[0] = pair[1];
    return 1;
}
size_t new_lwp(const ArgContext &c, ProbeArgs &a) {
    child_args(c, c.record.pid, static_cast<uint32_t>(c.u(0)), a, 0);
    return 2;
}

constexpr std::string_view kSysExitFields[] = {"id", "ret"};
bool fork_child(const ArgContext &c) {
    const int64_t id = c.i(0);
    return c.i(1) == 0 && std::find(std::begin(kForkCalls), std::end(kForkCalls), id) != std::end(kForkCalls);
}
bool process_start(const ArgContext &c) {
    return fork_child(c) && c.record.pid == c.record.tid;
}
bool lwp_start(const ArgContext &c) {
    return fork_child(c) && c.record.pid != c.record.tid;
}

constexpr std::string_view kGenerateFields[] = {"sig", "pid", "group", "comm"};
constexpr dtrace_arg_desc kSignalSendArgs[] = {probe_arg("live_lwpsinfo_t *", 0, "lwpsinfo_t *"),
                                               probe_arg("live_psinfo_t *", 1, "psinfo_t *"), probe_arg("int", 2)};
size_t signal_send(const ArgContext &c, ProbeArgs &a) {
    const auto target = static_cast<uint32_t>(c.u(1));
    // A signal to a process (group) names its leader, whose id is the pid;
    // a thread's process is looked up (pid 0). The event's comm names a
    // target gone before a clause reads it (what kill usually does).
    thread_args(c, c.u(2) != 0 ? target : 0, target, a, 0);
    c.other.name_if_gone(c.text(3));
    a[2] = c.u(0);
    return 3;
}

constexpr std::string_view kDeliverFields[] = {"sig", "sa_handler"};
constexpr dtrace_arg_desc kSignalHandleArgs[] = {probe_arg("int", 0), probe_arg("void *", 1), probe_arg("void *", 2)};
size_t signal_handle(const ArgContext &c, ProbeArgs &a) {
    a[0] = c.u(0);
    a[1] = 0; // the siginfo_t is not in the record
    a[2] = c.u(1);
    return 3;
}

using S = EventSource;
constexpr StableProbe kRows[] = {
    {"proc", "exec-success", S::Tracepoint, "sched", "sched_process_exec", {}, {}, nullptr, nullptr, true},
    {"proc", "exec-failure", S::Tracepoint, "syscalls", "sys_exit_execve", kRetFields, kErrnoArgs, exec_errno, failed},
    {"proc", "exit", S::Tracepoint, "sched", "sched_process_exit", kExitFields, kExitArgs, exit_reason, last_thread},
    {"proc", "lwp-exit", S::Tracepoint, "sched", "sched_process_exit", kExitFields, {}, nullptr, not_last_thread},
    {"proc", "create", S::Tracepoint, "task", "task_newtask", kNewTaskFields, kCreateArgs, child_process, new_process},
    {"proc", "lwp-create", S::Tracepoint, "task", "task_newtask", kNewTaskFields, kThreadArgs, new_lwp, new_thread},
    {"proc", "start", S::Tracepoint, "raw_syscalls", "sys_exit", kSysExitFields, {}, nullptr, process_start},
    {"proc", "lwp-start", S::Tracepoint, "raw_syscalls", "sys_exit", kSysExitFields, {}, nullptr, lwp_start},
    {"proc", "signal-send", S::Tracepoint, "signal", "signal_generate", kGenerateFields, kSignalSendArgs, signal_send},
    {"proc", "signal-handle", S::Tracepoint, "signal", "signal_deliver", kDeliverFields, kSignalHandleArgs,
     signal_handle},
};

} // namespace

std::span<const StableProbe> proc_family() {
    return kRows;
}

} // namespace dtrace::sdt
