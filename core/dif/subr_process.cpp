// subr_process.cpp: progenyof(), over the host's process tree.
//
// progenyof(pid) is true when the firing process is `pid` or one of its
// descendants. DTrace walks the kernel's parent links; here the parent of
// each process comes from /proc/<pid>/stat, so it answers for processes of
// this machine (a replayed event's pid names a process of the traced one).
// The first link is the event's own ppid: clauses run after the event, and a
// short-lived process (an exec-success of `ls`) is gone from /proc by then.
#include "dif/subr_impl.h"

#include <cstdio>
#include <string>

namespace dtrace::dif::subr {

namespace {

// Bounds the walk (a cycle cannot occur, but a racing reparent could loop).
constexpr int kMaxGenerations = 1024;

// The parent of `pid`, or -1 when it cannot be read (pid 0 has no /proc entry: the root). The field follows the
// command name, which is parenthesised and may itself contain ") ".
int64_t parent_of(int64_t pid) {
    std::string path = "/proc/" + std::to_string(pid) + "/stat";
    std::FILE *f = std::fopen(path.c_str(), "r");
    if (!f)
        return -1;
    char buffer[512];
    size_t n = std::fread(buffer, 1, sizeof buffer - 1, f);
    std::fclose(f);
    std::string_view stat(buffer, n);
    size_t close = stat.rfind(')');
    long long parent = -1;
    if (close == std::string_view::npos ||
        std::sscanf(std::string(stat.substr(close + 1)).c_str(), " %*c %lld", &parent) != 1)
        return -1;
    return parent;
}

} // namespace

// As DTrace, the walk goes up to the root of the tree, pid 0 (the kernel's
// idle task here, illumos's sched), so progenyof(0) is true of every
// process; the argument is a pid_t, so only its low 32 bits count.
uint64_t progenyof(SubrContext &ctx, Args args) {
    const auto ancestor = static_cast<int64_t>(static_cast<int32_t>(args[0]));
    int64_t pid = int64_t(ctx.pid());
    if (pid == ancestor)
        return 1;
    const auto event_parent = static_cast<int64_t>(ctx.ppid());
    pid = event_parent > 0 ? event_parent : parent_of(pid);
    for (int i = 0; i < kMaxGenerations && pid >= 0; i++) {
        if (pid == ancestor)
            return 1;
        pid = parent_of(pid);
    }
    return 0;
}

} // namespace dtrace::dif::subr
