// process_library.cpp: the D text of psinfo_t and lwpsinfo_t, generated from
// one member table per type so that the twin, the translator and the
// member indices of process_library.h cannot disagree.
#include "process_library.h"

#include <array>
#include <cstdio>
#include <span>
#include <string_view>
#include <unistd.h>

#include "d_text.h"
#include "d_twin_types.h"
#include "file_library.h"
#include "process_info.h"

namespace dtrace::live {

namespace {

using Member = plugin_common::TwinMember;

constexpr Member kPsinfo[] = {
    {"pr_nlwp", "int", "number of threads"},
    {"pr_pid", "pid_t", "unique process id"},
    {"pr_ppid", "pid_t", "process id of parent"},
    {"pr_pgid", "pid_t", "pid of process group leader"},
    {"pr_sid", "pid_t", "session id"},
    {"pr_uid", "uid_t", "real user id"},
    {"pr_euid", "uid_t", "effective user id"},
    {"pr_gid", "gid_t", "real group id"},
    {"pr_egid", "gid_t", "effective group id"},
    {"pr_addr", "uintptr_t", "address of the thread's task_struct"},
    {"pr_ttydev", "dev_t", "controlling tty device (0: none)"},
    {"pr_fname", "string", "name of the executable (comm)"},
    {"pr_psargs", "string", "initial characters of the argument list"},
    {"pr_argc", "int", "initial argument count"},
    {"pr_argv", "uintptr_t", "address of the arguments (Linux: their text)"},
    {"pr_envp", "uintptr_t", "address of the environment (Linux: its text)"},
    {"pr_dmodel", "char", "data model: PR_MODEL_LP64"},
    {"pr_taskid", "taskid_t", "task id (Linux: 0)"},
    {"pr_projid", "projid_t", "project id (Linux: 0)"},
    {"pr_poolid", "poolid_t", "pool id (Linux: 0)"},
    {"pr_zoneid", "zoneid_t", "zone id (Linux: 0, the global zone)"},
};
constexpr Member kLwpsinfo[] = {
    {"pr_flag", "int", "thread flags"},
    {"pr_lwpid", "id_t", "thread id"},
    {"pr_addr", "uintptr_t", "address of the thread's task_struct"},
    {"pr_wchan", "uintptr_t", "wait address (Linux: 0)"},
    {"pr_stype", "char", "synchronization event type"},
    {"pr_state", "char", "numeric thread state (SONPROC while it runs)"},
    {"pr_sname", "char", "printable character for pr_state"},
    {"pr_nice", "char", "nice for cpu usage"},
    {"pr_syscall", "short", "system call number (if in syscall)"},
    {"pr_oldpri", "char", "pre-SVR4, low value is high priority"},
    {"pr_cpu", "char", "the CPU it runs on"},
    {"pr_pri", "int", "priority, high value is high priority"},
    {"pr_pctcpu", "ushort_t", "% of recent cpu time used by this thread"},
    {"pr_clname", "string", "scheduling class name"},
    {"pr_name", "string", "name of the thread"},
    {"pr_onpro", "processorid_t", "processor which last ran this thread"},
    {"pr_bindpro", "processorid_t", "processor to which thread is bound"},
    {"pr_bindpset", "psetid_t", "processor set to which thread is bound"},
};
static_assert(std::size(kPsinfo) == ps::kSize && std::size(kLwpsinfo) == lwp::kSize);

constexpr std::string_view kPrelude = "typedef unsigned long dev_t;\n"
                                      "typedef int taskid_t;\n"
                                      "typedef int projid_t;\n"
                                      "typedef int poolid_t;\n"
                                      "typedef int zoneid_t;\n"
                                      "typedef int psetid_t;\n"
                                      "inline char PR_MODEL_ILP32 = 1;\n"
                                      "inline char PR_MODEL_LP64 = 2;\n"
                                      "inline char SSLEEP = 1;\n"
                                      "inline char SRUN = 2;\n"
                                      "inline char SZOMB = 3;\n"
                                      "inline char SSTOP = 4;\n"
                                      "inline char SIDL = 5;\n"
                                      "inline char SONPROC = 6;\n";

std::string number(int64_t value) {
    return std::to_string(value);
}

// What psinfo_t's members are for dtrace's own process (member index ->
// a D expression): its builtins (pid, execname ...) and what /proc says
// of it now, stable facts only (the library's text must be the same for
// every plugin that registers it). The thread count changes as dtrace
// starts threads: it reads as 0, not known.
std::array<std::string, ps::kSize> own_psinfo(const ProcessFacts &f) {
    std::array<std::string, ps::kSize> own;
    own[ps::Nlwp] = "0";
    own[ps::Pid] = "pid";
    own[ps::Ppid] = "ppid";
    own[ps::Pgid] = number(f.pgid);
    own[ps::Sid] = number(f.sid);
    own[ps::Uid] = "uid";
    own[ps::Euid] = number(f.euid);
    own[ps::Gid] = "gid";
    own[ps::Egid] = number(f.egid);
    own[ps::Addr] = "curthread";
    own[ps::Ttydev] = number(f.tty);
    own[ps::Fname] = "execname";
    own[ps::Psargs] = d_string(f.psargs);
    own[ps::Argc] = number(f.argc);
    own[ps::Argv] = d_hex(f.arg_start);
    own[ps::Envp] = d_hex(f.env_start);
    own[ps::Dmodel] = "PR_MODEL_LP64";
    own[ps::Taskid] = own[ps::Projid] = own[ps::Poolid] = own[ps::Zoneid] = "0";
    return own;
}

// The same for lwpsinfo_t, the thread's /proc facts those of dtrace's
// first thread (its others run at the same priority).
std::array<std::string, lwp::kSize> own_lwpsinfo(const ThreadFacts &t) {
    std::array<std::string, lwp::kSize> own;
    own.fill("0");
    own[lwp::Lwpid] = "tid";
    own[lwp::Addr] = "curthread";
    own[lwp::State] = "SONPROC";
    own[lwp::Sname] = "'O'";
    own[lwp::Nice] = number(t.nice);
    own[lwp::Oldpri] = number(t.priority);
    own[lwp::Cpu] = "cpu";
    own[lwp::Pri] = number(t.priority);
    own[lwp::Clname] = d_string(t.class_name);
    own[lwp::Name] = "execname";
    own[lwp::Onpro] = "cpu";
    own[lwp::Bindpro] = own[lwp::Bindpset] = "-1";
    return own;
}

// The types, the twin and the translator from it. Probes that fire in
// dtrace's own process (BEGIN, END, ERROR, the portable profile timers:
// the core's, with no plugin's record behind them) get `own`'s members;
// every other firing the twin's, which the plugin fills.
template <size_t N>
void append_process_type(std::string &d, std::string_view tag, const Member (&members)[N],
                         const std::array<std::string, N> &own) {
    plugin_common::append_twin_structs(d, tag, "live_", members);
    const std::string twin = "live_" + std::string(tag) + "_t";
    const plugin_common::TwinInput input = plugin_common::twin_pointer_input(twin);
    d += "translator " + std::string(tag) + "_t < " + input.declaration + " > {\n";
    const std::string own_process = "pid == " + number(getpid()); // libraries have no $pid
    for (size_t i = 0; i < N; ++i) {
        const Member &m = members[i];
        const std::string converted = m.d_type == "string" ? own[i] : "(" + std::string(m.d_type) + ")" + own[i];
        d += "\t" + std::string(m.name) + " = " + own_process + " ? " + converted + " : " +
             plugin_common::twin_member_read(twin, input, m) + ";\n";
    }
    d += "};\n";
}

} // namespace

const std::string &process_d_library() {
    static const std::string library = [] {
        std::string d(kPrelude);
        append_process_type(d, "psinfo", kPsinfo, own_psinfo(read_process_facts("/proc/self")));
        append_process_type(d, "lwpsinfo", kLwpsinfo, own_lwpsinfo(read_thread_facts("/proc/thread-self/stat")));
        d += "inline psinfo_t *curpsinfo = xlate<psinfo_t *>((live_psinfo_t *)" + d_hex(kPsinfoAddress) + ");\n";
        d += "inline lwpsinfo_t *curlwpsinfo = xlate<lwpsinfo_t *>((live_lwpsinfo_t *)" + d_hex(kLwpsinfoAddress) +
             ");\n";
        return d;
    }();
    return library;
}

int register_live_libraries(dtrace_host *host, const dtrace_host_ops *ops) {
    if (ops->struct_size < offsetof(dtrace_host_ops, register_library) + sizeof ops->register_library) {
        ops->report_error(host, "this dtrace is too old for the live plugins (no shared D libraries)");
        return -1;
    }
    if (ops->register_library(host, "linux/process.d", process_d_library().c_str()) != 0)
        return -1;
    return ops->register_library(host, "linux/file.d", file_d_library().c_str());
}

} // namespace dtrace::live
