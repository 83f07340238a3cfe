// process_library.cpp: the D text of psinfo_t and lwpsinfo_t, generated from
// one member table per type so that the twin, the translator and the
// member indices of process_library.h cannot disagree.
#include "process_library.h"

#include <cstdio>
#include <span>
#include <string_view>

#include "d_twin_types.h"

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

std::string hex(uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

} // namespace

const std::string &process_d_library() {
    static const std::string library = [] {
        std::string d(kPrelude);
        plugin_common::append_twin_type(d, "psinfo", "live_", kPsinfo);
        plugin_common::append_twin_type(d, "lwpsinfo", "live_", kLwpsinfo);
        d += "inline psinfo_t *curpsinfo = xlate<psinfo_t *>((live_psinfo_t *)" + hex(kPsinfoAddress) + ");\n";
        d +=
            "inline lwpsinfo_t *curlwpsinfo = xlate<lwpsinfo_t *>((live_lwpsinfo_t *)" + hex(kLwpsinfoAddress) + ");\n";
        return d;
    }();
    return library;
}

int register_process_library(dtrace_host *host, const dtrace_host_ops *ops) {
    if (ops->struct_size < offsetof(dtrace_host_ops, register_library) + sizeof ops->register_library) {
        ops->report_error(host, "this dtrace is too old for the live plugins (no shared D libraries)");
        return -1;
    }
    return ops->register_library(host, "linux/process.d", process_d_library().c_str());
}

} // namespace dtrace::live
