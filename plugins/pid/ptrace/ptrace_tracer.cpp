// ptrace_tracer.cpp: the tracer thread, its processes and threads.
#include "ptrace_tracer.h"

#include <dirent.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
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

// Interrupts the tracer's waitpid() when the control thread has a command:
// a real-time signal sent to that thread only, whose handler does nothing.
int wake_signal() {
    return SIGRTMIN + 6;
}

void ignore_signal(int) {}

void install_wake_handler() {
    struct sigaction action {};
    action.sa_handler = ignore_signal; // no SA_RESTART: waitpid returns EINTR
    sigemptyset(&action.sa_mask);
    sigaction(wake_signal(), &action, nullptr);
}

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

PtraceTracer::PtraceTracer(TracerCallbacks callbacks) : callbacks_(std::move(callbacks)) {
    install_wake_handler();
    configs_.resize(UPROBE_MAX_SLOTS);
    std::mutex started;
    std::unique_lock lock(started);
    std::condition_variable known;
    thread_ = std::thread([&] {
        {
            std::lock_guard guard(started);
            tracer_tid_ = static_cast<pid_t>(syscall(SYS_gettid));
        }
        known.notify_one();
        run();
    });
    known.wait(lock, [&] { return tracer_tid_ != 0; });
}

PtraceTracer::~PtraceTracer() {
    stop();
}

void PtraceTracer::configure(uint32_t slot, const HitConfig &config) {
    std::lock_guard guard(mutex_);
    if (slot < configs_.size())
        configs_[slot] = config;
}

void PtraceTracer::disarm(uint32_t slot) {
    std::lock_guard guard(mutex_);
    if (slot < configs_.size())
        configs_[slot].armed = false;
}

const HitConfig *PtraceTracer::config_of(uint32_t slot) const {
    return slot < configs_.size() && configs_[slot].armed ? &configs_[slot] : nullptr;
}

live::Status PtraceTracer::on_tracer(std::function<live::Status()> body) {
    if (std::this_thread::get_id() == thread_.get_id())
        return body();
    Command command{std::move(body)};
    std::unique_lock lock(mutex_);
    if (!running_)
        return live::Error{"the ptrace tracer has stopped"};
    commands_.push_back(&command);
    commands_changed_.notify_all(); // a tracer with no process waits on it
    // A wake sent just before the tracer blocks in waitpid is lost: sent again until taken.
    while (!command.done) {
        syscall(SYS_tgkill, getpid(), tracer_tid_, wake_signal());
        commands_changed_.wait_for(lock, std::chrono::milliseconds(10));
    }
    return command.result;
}

live::Status PtraceTracer::attach(const std::string &path, int64_t pid, std::span<const live::UprobeSite> sites) {
    std::vector<live::UprobeSite> copy(sites.begin(), sites.end());
    return on_tracer([this, path, pid, copy]() -> live::Status {
        Process &process = processes_[pid];
        if (!process.breakpoints)
            process.breakpoints = std::make_unique<Breakpoints>(pid);
        for (const live::UprobeSite &site : copy)
            process.breakpoints->add(path, site.file_offset, site.cookie);
        // A traced process gets them now (a stopped thread runs the scratch area's mmap).
        if (process.traced && !process.threads.empty()) {
            for (pid_t tid : process.threads) {
                if (threads_[tid].stopped) {
                    place(process, tid);
                    break;
                }
            }
        }
        return live::Done{};
    });
}

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
    stop_all(process);
    if (process.threads.empty())
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

void PtraceTracer::stop_all(Process &process) {
    for (pid_t tid : process.threads) {
        if (!threads_[tid].stopped)
            ptrace(PTRACE_INTERRUPT, tid, nullptr, nullptr);
    }
    // Every stop of these threads is taken as it comes (a signal is kept for later).
    for (bool waiting = true; waiting;) {
        waiting = false;
        for (pid_t tid : std::set(process.threads)) {
            if (threads_[tid].stopped)
                continue;
            waiting = true;
            int status = 0;
            if (wait_for(tid, status) != tid) {
                forget_thread(tid);
                continue;
            }
            if (WIFEXITED(status) || WIFSIGNALED(status)) {
                forget_thread(tid);
                continue;
            }
            Thread &thread = threads_[tid];
            thread.stopped = true;
            const int event = status >> 16;
            const int signal = WSTOPSIG(status);
            if (event == PTRACE_EVENT_EXIT) {
                ptrace(PTRACE_DETACH, tid, nullptr, nullptr);
                forget_thread(tid);
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
    Process &process = known->second;
    if (process.traced) {
        stop_all(process);
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

void PtraceTracer::run_commands() {
    std::unique_lock lock(mutex_);
    while (!commands_.empty()) {
        Command *command = commands_.front();
        commands_.pop_front();
        lock.unlock();
        live::Status result = command->run();
        lock.lock();
        command->result = std::move(result);
        command->done = true;
    }
    commands_changed_.notify_all();
}

void PtraceTracer::run() {
    // Only this thread takes the wake signal.
    sigset_t wake;
    sigemptyset(&wake);
    sigaddset(&wake, wake_signal());
    pthread_sigmask(SIG_UNBLOCK, &wake, nullptr);
    for (;;) {
        run_commands();
        {
            std::unique_lock lock(mutex_);
            if (!running_)
                break;
            if (threads_.empty()) {
                commands_changed_.wait(lock, [&] { return !commands_.empty() || !running_; });
                continue;
            }
        }
        int status = 0;
        const pid_t tid = waitpid(-1, &status, __WALL | __WNOTHREAD);
        if (tid > 0)
            handle(tid, status);
        else if (errno == ECHILD)
            forget_all_traced();
    }
    while (!processes_.empty())
        detach_process(processes_.begin()->first, true);
    std::lock_guard guard(mutex_);
    tracer_done_ = true;
    commands_changed_.notify_all();
}

void PtraceTracer::forget_all_traced() {
    threads_.clear();
    std::erase_if(processes_, [](const auto &entry) { return entry.second.traced; });
}

void PtraceTracer::stop() {
    {
        std::lock_guard guard(mutex_);
        if (!running_)
            return;
        running_ = false;
        commands_changed_.notify_all();
    }
    // Wakes it from waitpid until it has let every process go.
    while (thread_.joinable()) {
        syscall(SYS_tgkill, getpid(), tracer_tid_, wake_signal());
        std::unique_lock lock(mutex_);
        if (commands_changed_.wait_for(lock, std::chrono::milliseconds(10), [&] { return tracer_done_; }))
            break;
    }
    if (thread_.joinable())
        thread_.join();
}

} // namespace dtrace::pid::ptrace_backend
