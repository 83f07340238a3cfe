// tracing.cpp: the consume loop and its stopping conditions.
#include "cli/tracing.h"

#include "cli/plugin_actions.h"
#include "engine/enable_checks.h"
#include "engine/resource_sizing.h"
#include "session/record_printer.h"
#include "session/replay_progress.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <memory>
#include <unistd.h>

namespace dtrace::cli {

namespace {

// Signals only set flags; the loop polls them at least this often.
constexpr int64_t kSignalPollNanos = 50'000'000;
std::atomic<int> g_interrupts{0};

void on_interrupt(int) {
    g_interrupts.fetch_add(1, std::memory_order_relaxed);
}

void install_signal_handlers() {
    struct sigaction act {};
    act.sa_handler = on_interrupt;
    sigemptyset(&act.sa_mask);
    for (int sig : {SIGINT, SIGTERM}) {
        struct sigaction old {};
        // A signal the parent ignores (nohup, background jobs) stays ignored.
        if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sig, &act, nullptr);
    }
}

} // namespace

bool Tracing::targets_gone() {
    if (targets_.empty())
        return false;
    bool all_gone = true;
    for (TargetProcess &t : targets_) {
        std::string how; // set only the first time the exit is seen
        if (!t.poll_exited(how)) {
            all_gone = false;
            continue;
        }
        if (how.empty())
            continue;
        host_.target_changed(t.pid(), DTRACE_TARGET_EXITED);
        if (!options_.is_set("quiet"))
            std::fprintf(stderr, "%s: %s\n", program_name_.c_str(), how.c_str());
    }
    return all_gone;
}

// As DTrace does when a session ends before its -c commands (exit(), ^C):
// they are killed, not waited for.
void Tracing::kill_created_targets() {
    for (TargetProcess &t : targets_) {
        std::string how; // set when its exit is seen here first
        if (t.poll_exited(how)) {
            if (!how.empty())
                host_.target_changed(t.pid(), DTRACE_TARGET_EXITED);
            continue;
        }
        if (!t.created())
            continue; // a grabbed process goes on after dtrace
        t.kill_created();
        host_.target_changed(t.pid(), DTRACE_TARGET_EXITED);
    }
}

int Tracing::run() {
    session::RecordPrinter printer(engine_, out_, options_, program_name_);
    printer.set_symbol_lookup([this](host::LoadedPlugin *recorder, bool user, int64_t pid, uint64_t address) {
        // A user address of no process (%A of a plain integer) is $target's,
        // as in DTrace.
        if (user && pid == 0 && !targets_.empty())
            pid = targets_.front().pid();
        return host_.lookup_symbol(recorder, user ? DTRACE_SYMBOL_USER : DTRACE_SYMBOL_KERNEL, pid, address);
    });
    printer.set_plugin_action_runner(plugin_action_runner(host_));
    auto report = [&](const std::string &message) {
        std::fprintf(stderr, "%s: %s\n", program_name_.c_str(), message.c_str());
    };
    const engine::SizingOutcome sizing =
        engine::size_for_machine(options_, engine::resource_needs(engine_, options_), engine::available_memory());
    if (std::optional<std::string> refused = sizing.refusal ? sizing.refusal : engine_.refuse_start()) {
        report("could not enable tracing: " + *refused);
        return 1;
    }
    // A replay's progress, on a terminal (or with -x progress), never with -q.
    const bool progress_wanted = options_.is_set("replay") && !options_.is_set("quiet");
    const bool terminal = isatty(STDERR_FILENO) != 0;
    // Shared with the hook: a plugin's thread may report until the plugins stop, after run() returns.
    auto progress = std::make_shared<session::ReplayProgress>(
        stderr, progress_wanted && (terminal || options_.is_set("progress")), terminal);
    engine_.set_progress_hook(
        [progress](uint64_t done, uint64_t total, uint64_t events) { progress->update(done, total, events); });
    // Reads the buffers and carries out their records; a replay waiting for
    // that (printa, clear ...: replay_backpressure.h) then goes on.
    auto consume = [&] {
        printer.consume(engine_.take_buffers());
        engine_.buffers_consumed();
    };
    // BEGIN fires before any plugin delivers an event, as in DTrace.
    install_signal_handlers();
    engine_.go();
    for (const std::string &notice : sizing.notices)
        report(notice);
    // A plugin that cannot start cannot deliver its enabled probes: the
    // session fails as an enabling would (what BEGIN recorded is printed, END
    // does not fire).
    const std::vector<host::PluginDiagnostic> start_failures = host_.start_all();
    for (const host::PluginDiagnostic &d : start_failures)
        report(d.message);
    if (!start_failures.empty()) {
        engine_.consumer_stopping();
        host_.stop_all();
        consume();
        std::fflush(printer.output());
        kill_created_targets();
        return 1;
    }
    if (options_.is_set("destructive") && !options_.is_set("quiet"))
        report("allowing destructive actions");
    // Every probe is enabled: the targets may run.
    for (TargetProcess &t : targets_) {
        t.release();
        host_.target_changed(t.pid(), DTRACE_TARGET_RUNNING);
    }
    // setopt() may change the rates while tracing: they are read each time.
    auto switch_ns = [this] { return std::max<int64_t>(options_.number("switchrate"), 1); };
    auto status_ns = [this] { return std::max<int64_t>(options_.number("statusrate"), 1); };
    bool done = false;
    bool newline_pending = false;
    int seen_interrupts = 0;
    auto next_switch = std::chrono::steady_clock::now() + std::chrono::nanoseconds(switch_ns());
    auto next_status = std::chrono::steady_clock::now() + std::chrono::nanoseconds(status_ns());
    do {
        if (!engine_.exit_requested() && g_interrupts.load() == 0)
            engine_.wait_for_work(std::min(switch_ns(), kSignalPollNanos));
        int interrupts = g_interrupts.load();
        if (interrupts > seen_interrupts) {
            newline_pending = seen_interrupts == 0; // the newline after ^C, even when quiet
            seen_interrupts = interrupts;
        }
        if (newline_pending) {
            std::fputc('\n', printer.output());
            newline_pending = false;
        }
        if (engine_.exit_requested() || engine_.buffer_filled() || seen_interrupts > 0 || targets_gone()) {
            done = true;
            engine_.consumer_stopping();
            host_.stop_all();
            progress->finish();
            // As DTrace's consumer, read what was recorded before END fires:
            // the actions carried out on reading (clear, trunc, normalize)
            // then act before END's clauses run.
            consume();
            engine_.stop();
        }
        // Buffers are switched at switchrate (or at the end), as DTrace does.
        auto now = std::chrono::steady_clock::now();
        if (done || now >= next_switch || engine_.drain_wanted()) {
            consume();
            std::fflush(printer.output());
            next_switch = now + std::chrono::nanoseconds(switch_ns()); // after a setopt() just read
        }
        // The status drops: every statusrate, and once more when stopped.
        if (done || now >= next_status) {
            next_status = now + std::chrono::nanoseconds(status_ns());
            printer.report_status();
        }
    } while (!done && seen_interrupts < 2);
    kill_created_targets();
    // A second ^C means: stop now, print nothing more.
    if (seen_interrupts >= 2)
        return printer.exit_status();
    printer.print_aggregations(); // the blank line, then what printa() did not print
    std::fflush(printer.output());
    return printer.exit_status();
}

} // namespace dtrace::cli
