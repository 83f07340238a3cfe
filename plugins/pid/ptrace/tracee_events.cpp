// tracee_events.cpp: the tracer thread's processes and threads: seizing
// them, their ptrace stops (breakpoint hits, new threads, fork, exec,
// exit, signals), and letting them go.
#include "ptrace_tracer.h"

#include <dirent.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>

namespace dtrace::pid::ptrace_backend {

namespace {

constexpr long kOptions = PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC |
                          PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL;

std::string errno_text(const std::string &what) {
    return what + ": " + std::strerror(errno);
}

// The value of `key:` in /proc/PID/status (its first number).
int64_t status_field(int64_t pid, const char *key) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    const std::string prefix = std::string(key) + ":";
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(prefix, 0) == 0)
            return std::strtoll(line.c_str() + prefix.size(), nullptr, 10);
    }
    return -1;
}

std::string thread_comm(pid_t tid) {
    std::ifstream in("/proc/" + std::to_string(tid) + "/comm");
    std::string comm;
    std::getline(in, comm);
    return comm;
}

std::vector<pid_t> threads_of(int64_t pid) {
    std::vector<pid_t> out;
    DIR *dir = opendir(("/proc/" + std::to_string(pid) + "/task").c_str());
    if (dir == nullptr)
        return out;
    while (dirent *entry = readdir(dir)) {
        if (entry->d_name[0] != '.')
            out.push_back(static_cast<pid_t>(std::atoi(entry->d_name)));
    }
    closedir(dir);
    return out;
}

// waitpid() of the tracer thread, again when the wake signal interrupts it.
pid_t wait_for(pid_t tid, int &status) {
    pid_t got;
    while ((got = waitpid(tid, &status, __WALL | __WNOTHREAD)) < 0 && errno == EINTR) {
    }
    return got;
}

bool is_group_stop_signal(int signal) {
    return signal == SIGSTOP || signal == SIGTSTP || signal == SIGTTIN || signal == SIGTTOU;
}

} // namespace

live::Status PtraceTracer::trace(int64_t pid, bool held) {
    if (!held)
        return on_tracer([this, pid] { return seize(pid); });
    return on_tracer([this, pid]() -> live::Status {
        Process &process = processes_[pid];
        if (process.traced || process.held)
            return live::Done{};
        // dtrace releases it with this signal pending: it stops before its next instruction.
        if (kill(static_cast<pid_t>(pid), SIGSTOP) != 0)
            return live::Error{errno_text("cannot stop process " + std::to_string(pid))};
        process.held = true;
        return live::Done{};
    });
}

live::Status PtraceTracer::take_over(int64_t pid) {
    return on_tracer([this, pid]() -> live::Status {
        auto known = processes_.find(pid);
        if (known == processes_.end() || !known->second.held)
            return live::Done{};
        return seize(pid);
    });
}

live::Status PtraceTracer::seize(int64_t pid) {
    Process &process = processes_[pid];
    if (process.traced)
        return live::Done{};
    if (!process.breakpoints)
        process.breakpoints = std::make_unique<Breakpoints>(pid);
    process.ppid = status_field(pid, "PPid");
    process.uid = static_cast<uint32_t>(status_field(pid, "Uid"));
    process.gid = static_cast<uint32_t>(status_field(pid, "Gid"));
    // Threads may start while we seize: until a pass finds no new one.
    for (bool found = true; found;) {
        found = false;
        for (pid_t tid : threads_of(pid)) {
            if (process.threads.count(tid))
                continue;
            if (ptrace(PTRACE_SEIZE, tid, nullptr, reinterpret_cast<void *>(kOptions)) != 0) {
                if (errno == ESRCH)
                    continue; // it exited meanwhile
                const std::string error = errno_text("cannot trace thread " + std::to_string(tid) + " of process " +
                                                     std::to_string(pid) + " with ptrace");
                detach_process(pid, false);
                return live::Error{error};
            }
            found = true;
            process.threads.insert(tid);
            threads_[tid] = Thread{pid};
            ptrace(PTRACE_INTERRUPT, tid, nullptr, nullptr);
        }
    }
    if (process.threads.empty()) {
        processes_.erase(pid);
        return live::Error{"cannot trace process " + std::to_string(pid) + ": it has exited"};
    }
    process.traced = true;
    if (stop_all(pid) == nullptr)
        return live::Done{}; // it exited meanwhile
    place(process, *process.threads.begin());
    if (process.held) {
        // Ends our SIGSTOP's group stop; the SIGCONT itself is not the program's to see.
        process.held = false;
        process.swallow_sigcont = true;
        kill(static_cast<pid_t>(pid), SIGCONT);
    }
    for (pid_t tid : std::set(process.threads)) {
        Thread &thread = threads_[tid];
        const int signal = thread.pending_signal;
        thread.pending_signal = 0;
        resume(tid, is_group_stop_signal(signal) ? 0 : signal);
    }
    return live::Done{};
}

PtraceTracer::Process *PtraceTracer::stop_all(int64_t pid) {
    auto known = processes_.find(pid);
    if (known == processes_.end())
        return nullptr;
    Process &process = known->second;
    for (pid_t tid : process.threads) {
        if (!threads_[tid].stopped)
            ptrace(PTRACE_INTERRUPT, tid, nullptr, nullptr);
    }
    // A thread forgotten may have been the last: forget_thread() then erased the process.
    auto forget = [&](pid_t tid) {
        forget_thread(tid);
        return processes_.count(pid) != 0;
    };
    // Every stop of these threads is taken as it comes (a signal is kept for later).
    for (bool waiting = true; waiting;) {
        waiting = false;
        for (pid_t tid : std::set(process.threads)) {
            if (threads_[tid].stopped)
                continue;
            waiting = true;
            int status = 0;
            if (wait_for(tid, status) != tid || WIFEXITED(status) || WIFSIGNALED(status)) {
                if (!forget(tid))
                    return nullptr;
                continue;
            }
            Thread &thread = threads_[tid];
            thread.stopped = true;
            const int event = status >> 16;
            const int signal = WSTOPSIG(status);
            if (event == PTRACE_EVENT_EXIT) {
                ptrace(PTRACE_DETACH, tid, nullptr, nullptr);
                if (!forget(tid))
                    return nullptr;
            } else if (event == PTRACE_EVENT_CLONE || event == PTRACE_EVENT_VFORK) {
                // A thread, or a vfork child in our memory: stopped and let go with the others.
                unsigned long child = 0;
                ptrace(PTRACE_GETEVENTMSG, tid, nullptr, &child);
                process.threads.insert(static_cast<pid_t>(child));
                threads_[static_cast<pid_t>(child)] = Thread{threads_[tid].process};
            } else if (event == PTRACE_EVENT_FORK) {
                unsigned long child = 0;
                ptrace(PTRACE_GETEVENTMSG, tid, nullptr, &child);
                let_fork_child_go(process, static_cast<pid_t>(child));
            } else if (event == 0 && signal == SIGTRAP) {
                // At one of our int3s (or a removed one): it runs the instruction in place once restored.
                user_regs_struct regs;
                if (ptrace(PTRACE_GETREGS, tid, nullptr, &regs) == 0 &&
                    (process.breakpoints->site_at(regs.rip - 1) || process.breakpoints->was_site(regs.rip - 1))) {
                    regs.rip -= 1;
                    ptrace(PTRACE_SETREGS, tid, nullptr, &regs);
                } else {
                    thread.pending_signal = SIGTRAP;
                }
            } else if (event == 0) {
                thread.pending_signal = signal;
            }
        }
    }
    return &process;
}

void PtraceTracer::resume(pid_t tid, int signal) {
    auto thread = threads_.find(tid);
    if (thread != threads_.end())
        thread->second.stopped = false;
    if (ptrace(PTRACE_CONT, tid, nullptr, reinterpret_cast<void *>(static_cast<long>(signal))) != 0 && errno == ESRCH)
        forget_thread(tid);
}

void PtraceTracer::place(Process &process, pid_t tid) {
    if (!process.breakpoints->has_pending())
        return;
    std::vector<std::string> refused;
    live::Status placed = process.breakpoints->place_pending(tid, refused);
    if (!placed && callbacks_.report)
        callbacks_.report(placed.error());
    if (!refused.empty() && callbacks_.report)
        callbacks_.report(
            "ptrace: " + std::to_string(refused.size()) +
            " probe sites left out (their instruction cannot run out of line); the first: " + refused.front());
}

void PtraceTracer::let_fork_child_go(Process &process, pid_t child) {
    // Its first stop, unless it came before its parent's event.
    auto early = threads_.find(child);
    if (early == threads_.end() || early->second.process != -child) {
        int status = 0;
        wait_for(child, status);
    }
    threads_.erase(child);
    // Its own copy of the text: our int3s out.
    process.breakpoints->remove_from(child);
    ptrace(PTRACE_DETACH, child, nullptr, nullptr);
}

void PtraceTracer::forget_thread(pid_t tid) {
    auto thread = threads_.find(tid);
    if (thread == threads_.end())
        return;
    auto process = processes_.find(thread->second.process);
    threads_.erase(thread);
    if (process == processes_.end())
        return;
    process->second.threads.erase(tid);
    if (process->second.threads.empty() && process->second.traced)
        processes_.erase(process);
}

void PtraceTracer::detach_process(int64_t pid, bool restore) {
    auto known = processes_.find(pid);
    if (known == processes_.end())
        return;
    if (known->second.traced && stop_all(pid) == nullptr)
        return; // its last thread exited meanwhile: nothing left to restore or detach
    Process &process = known->second;
    if (process.traced) {
        if (restore)
            process.breakpoints->remove_all();
        for (pid_t tid : process.threads) {
            const int signal = threads_[tid].pending_signal;
            ptrace(PTRACE_DETACH, tid, nullptr, reinterpret_cast<void *>(static_cast<long>(signal)));
            threads_.erase(tid);
        }
    } else if (process.held) {
        kill(static_cast<pid_t>(pid), SIGCONT); // our SIGSTOP, never taken over
    }
    processes_.erase(known);
}

void PtraceTracer::fire(pid_t tid, Process &process, const Site &site, user_regs_struct &regs) {
    HitContext hit;
    hit.pid = threads_[tid].process;
    hit.tid = tid;
    hit.ppid = process.ppid;
    hit.uid = process.uid;
    hit.gid = process.gid;
    hit.regs = regs;
    hit.regs.rip = site.address;
    bool have_comm = false;
    const std::vector<uint64_t> cookies = site.cookies; // a library's probes may be added while it fires
    const MemoryReader read = [&](uint64_t address, void *buffer, size_t length) {
        return process.breakpoints->read(address, buffer, length);
    };
    for (uint64_t cookie : cookies) {
        const uint32_t slot = static_cast<uint32_t>(cookie);
        HitConfig config;
        {
            std::lock_guard guard(mutex_);
            const HitConfig *armed = config_of(slot);
            if (armed == nullptr)
                continue;
            config = *armed;
        }
        if (config.stops) {
            callbacks_.link_map(hit.pid);
            place(process, tid); // the sites of the libraries just mapped
            continue;
        }
        if (!have_comm) {
            Thread &thread = threads_[tid];
            if (thread.comm.empty())
                thread.comm = thread_comm(tid); // read once a thread: a hit costs enough
            hit.comm = thread.comm;
            have_comm = true;
        }
        const std::vector<uint8_t> record =
            build_hit_record(slot, static_cast<uint32_t>(cookie >> 32), config, hit, read);
        callbacks_.deliver(record);
    }
}

void PtraceTracer::handle_trap(pid_t tid, Thread &thread) {
    auto process = processes_.find(thread.process);
    user_regs_struct regs;
    if (process == processes_.end() || ptrace(PTRACE_GETREGS, tid, nullptr, &regs) != 0) {
        resume(tid, SIGTRAP);
        return;
    }
    Breakpoints &breakpoints = *process->second.breakpoints;
    const uint64_t at = regs.rip - 1;
    if (const Site *site = breakpoints.site_at(at)) {
        const uint64_t out_of_line = site->out_of_line;
        fire(tid, process->second, *site, regs);
        regs.rip = out_of_line;
        ptrace(PTRACE_SETREGS, tid, nullptr, &regs);
        resume(tid, 0);
    } else if (breakpoints.was_site(at)) {
        regs.rip = at; // hit before it was removed: the original instruction is back
        ptrace(PTRACE_SETREGS, tid, nullptr, &regs);
        resume(tid, 0);
    } else {
        resume(tid, SIGTRAP); // the program's own
    }
}

void PtraceTracer::handle(pid_t tid, int status) {
    auto known = threads_.find(tid);
    if (known == threads_.end()) {
        // A new thread or fork child whose first stop came before its
        // parent's event named it: it stays stopped until that event (-tid: no process yet).
        if (WIFSTOPPED(status))
            threads_[tid] = Thread{-tid, 0, true};
        return;
    }
    Thread &thread = known->second;
    if (WIFEXITED(status) || WIFSIGNALED(status)) {
        forget_thread(tid);
        return;
    }
    thread.stopped = true;
    const int event = status >> 16;
    const int signal = WSTOPSIG(status);
    auto process = processes_.find(thread.process);
    switch (event) {
    case PTRACE_EVENT_CLONE:
    case PTRACE_EVENT_FORK:
    case PTRACE_EVENT_VFORK: {
        unsigned long message = 0;
        ptrace(PTRACE_GETEVENTMSG, tid, nullptr, &message);
        const pid_t child = static_cast<pid_t>(message);
        const bool early = threads_.count(child) && threads_[child].process == -child; // stopped already
        if (event == PTRACE_EVENT_FORK) {
            if (process != processes_.end())
                let_fork_child_go(process->second, child);
        } else {
            // A thread, or a vfork child running in our memory: traced as one of ours.
            threads_[child] = Thread{thread.process, 0, early};
            if (process != processes_.end())
                process->second.threads.insert(child);
            if (early)
                resume(child, 0);
        }
        resume(tid, 0);
        return;
    }
    case PTRACE_EVENT_EXEC:
        // A new image, without our breakpoints (or a vfork child leaving our memory).
        if (process != processes_.end() && process->first == tid) {
            for (pid_t other : process->second.threads) {
                if (other != tid)
                    threads_.erase(other);
            }
            processes_.erase(process);
        } else {
            forget_thread(tid);
        }
        threads_.erase(tid);
        ptrace(PTRACE_DETACH, tid, nullptr, nullptr);
        return;
    case PTRACE_EVENT_EXIT:
        // Let go while it exits: its parent (dtrace, for -c) reaps it as usual.
        ptrace(PTRACE_DETACH, tid, nullptr, nullptr);
        forget_thread(tid);
        return;
    case PTRACE_EVENT_STOP:
        if (is_group_stop_signal(signal)) {
            ptrace(PTRACE_LISTEN, tid, nullptr, nullptr); // job control: it stays stopped
            thread.stopped = false;                       // (until SIGCONT; an interrupt still stops it)
        } else
            resume(tid, 0);
        return;
    default:
        break;
    }
    if (signal == SIGTRAP) {
        handle_trap(tid, thread);
    } else if (signal == SIGCONT && process != processes_.end() && process->second.swallow_sigcont) {
        process->second.swallow_sigcont = false;
        resume(tid, 0);
    } else {
        resume(tid, signal);
    }
}

void PtraceTracer::forget_all_traced() {
    threads_.clear();
    std::erase_if(processes_, [](const auto &entry) { return entry.second.traced; });
}

} // namespace dtrace::pid::ptrace_backend
