// ptrace_tracer.cpp: the tracer thread: its commands from the control
// thread, its wait loop, and stopping it (the processes and threads it
// traces: tracee_events.cpp).
#include "ptrace_tracer.h"

#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

namespace dtrace::pid::ptrace_backend {

namespace {

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
