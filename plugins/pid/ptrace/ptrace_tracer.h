// ptrace_tracer.h: the pid provider's fallback where the kernel has no
// uprobes (or refuses BPF): int3 breakpoints in the traced process, handled
// by one tracer thread of dtrace under ptrace. It costs microseconds per hit
// (two context switches and a few system calls), a thousand times what a
// uprobe costs, so it is used only when uprobes cannot be (or when asked:
// -x pidbackend=ptrace).
//
// The tracer thread does every ptrace request (the kernel takes them from
// the thread that attached only). It seizes every thread of a process
// (PTRACE_O_TRACECLONE: the threads it creates later too), places the
// breakpoints (breakpoints.h), and waits. A thread stopped at one of them
// is fired as a uprobe event would be (hit_record.h, through `deliver`)
// while it stays stopped, so that copyin() reads its memory as the call
// sees it, then sent to run the displaced instruction out of line. A fork
// child has the int3s removed from its copy of the text and is let go; a
// vfork child (which shares the memory) is traced until it execs or exits;
// a process that execs is let go (its new image has no breakpoints); a
// thread that exits is let go at its exit stop. stop() (and the
// destructor) stops every thread, puts the original bytes back and
// detaches them all, passing on any signal a thread was stopped with.
//
// Processes of the session (-c, -p) are held under ptrace by dtrace itself
// until they are released: seize() queues a SIGSTOP while dtrace holds
// them, so that they stop again at once when released, before running
// anything, and are seized then (take_over()).
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "breakpoints.h"
#include "hit_record.h"
#include "result.h"
#include "uprobe_attach.h"

namespace dtrace::pid::ptrace_backend {

struct TracerCallbacks {
    // A probe's record (the uprobe program's shape), on the tracer thread.
    std::function<void(std::span<const uint8_t> record)> deliver;
    // The link-map hook of process `pid` fired (stopped): the plugin reads its libraries.
    std::function<void(int64_t pid)> link_map;
    // Something to say (sites left out), on the tracer thread.
    std::function<void(const std::string &message)> report;
};

class PtraceTracer {
  public:
    explicit PtraceTracer(TracerCallbacks callbacks);
    ~PtraceTracer();
    PtraceTracer(const PtraceTracer &) = delete;
    PtraceTracer &operator=(const PtraceTracer &) = delete;

    // Probe slot `slot` fires with `config` (armed false: it does not fire).
    void configure(uint32_t slot, const HitConfig &config);
    void disarm(uint32_t slot);
    // Breakpoints at `sites` of `path` in process `pid`, placed once the
    // process is traced and the file mapped (uprobe_attach.h's sites).
    live::Status attach(const std::string &path, int64_t pid, std::span<const live::UprobeSite> sites);
    // Traces process `pid`. `held`: dtrace holds it under ptrace until it
    // releases it (a -c or -p target): it is seized when take_over(pid) is
    // called, after the release.
    live::Status trace(int64_t pid, bool held);
    live::Status take_over(int64_t pid);
    // Lets every process go, its text as it was. Idempotent.
    void stop();

  private:
    struct Thread {
        int64_t process = 0; // its entry in processes_ (a vfork child: its parent's)
        int pending_signal = 0;
        bool stopped = false;
        std::string comm; // read at its first hit
    };
    struct Process {
        std::unique_ptr<Breakpoints> breakpoints;
        std::set<pid_t> threads;
        bool traced = false;          // seized
        bool held = false;            // a SIGSTOP is queued for its release
        bool swallow_sigcont = false; // the SIGCONT that ended our SIGSTOP
        int64_t ppid = 0;
        uint32_t uid = 0, gid = 0;
    };
    struct Command {
        std::function<live::Status()> run;
        live::Status result = live::Done{};
        bool done = false;
    };

    // Runs `body` on the tracer thread and returns its result.
    live::Status on_tracer(std::function<live::Status()> body);
    void run();
    void run_commands();
    live::Status seize(int64_t pid);
    // Stops every thread of process `pid` and waits until each is; nullptr
    // when its last thread exited meanwhile (the process is forgotten then).
    Process *stop_all(int64_t pid);
    void resume(pid_t tid, int signal);
    void handle(pid_t tid, int status);
    void handle_trap(pid_t tid, Thread &thread);
    void fire(pid_t tid, Process &process, const Site &site, user_regs_struct &regs);
    void place(Process &process, pid_t tid);
    // A fork child of `process` (stopped, or about to report its first stop):
    // our int3s taken out of its copy of the text, and let go.
    void let_fork_child_go(Process &process, pid_t child);
    void forget_thread(pid_t tid);
    void forget_all_traced();
    void detach_process(int64_t pid, bool restore);
    const HitConfig *config_of(uint32_t slot) const;

    TracerCallbacks callbacks_;
    std::thread thread_;
    pid_t tracer_tid_ = 0;
    std::mutex mutex_; // commands_, configs_ and running_
    std::condition_variable commands_changed_;
    std::deque<Command *> commands_;
    std::vector<HitConfig> configs_; // by slot
    bool running_ = true;
    bool tracer_done_ = false; // every process let go
    // The tracer thread's own:
    std::map<int64_t, Process> processes_;
    std::map<pid_t, Thread> threads_;
    std::map<int64_t, std::vector<std::pair<std::string, std::vector<live::UprobeSite>>>> early_sites_;
};

} // namespace dtrace::pid::ptrace_backend
