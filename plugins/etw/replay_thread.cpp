// replay_thread.cpp: the replay loop, damage reports and the end of input.
#include "replay_thread.h"

#include <system_error>

#include "event_dispatch.h"
#include "replay_source.h"

namespace dtrace::etw::plugin {

namespace {

// The reader does not say which CPU a damaged buffer belonged to (its CPU
// field may be the damage), and the logger's losses are trace-wide: drops
// are reported on CPU 0.
constexpr uint32_t kTraceWideCpu = 0;

} // namespace

int ReplayThread::start() {
    Result<EtlReader> opened = open_replay(path_);
    if (!opened) {
        ops_->report_error(host_, opened.error().c_str());
        return -1;
    }
    stopping_.store(false);
    try {
        thread_ = std::thread([this, reader = std::move(opened.value())]() mutable { run(std::move(reader)); });
    } catch (const std::system_error &e) {
        const std::string message = std::string("cannot start the replay thread: ") + e.what();
        ops_->report_error(host_, message.c_str());
        return -1;
    }
    return 0;
}

void ReplayThread::stop() {
    stopping_.store(true);
    if (thread_.joinable()) {
        thread_.join();
    }
}

void ReplayThread::report_damage(const ReaderStats &stats) {
    if (stats.corrupt_buffers > reported_corrupt_buffers_) {
        ops_->report_drops(host_, kTraceWideCpu, stats.corrupt_buffers - reported_corrupt_buffers_,
                           DTRACE_DROP_CORRUPT);
        reported_corrupt_buffers_ = stats.corrupt_buffers;
    }
    for (; reported_problems_ < stats.problem_count; ++reported_problems_) {
        if (reported_problems_ < stats.problems.size()) {
            ops_->report_error(host_, stats.problems[reported_problems_].message.c_str());
        }
    }
}

void ReplayThread::run(EtlReader reader) {
    try {
        replay(reader);
    } catch (const std::exception &e) { // out of memory: end the session rather than the process
        const std::string message = std::string("replay of ") + path_ + " stopped: " + e.what();
        ops_->report_error(host_, message.c_str());
        ops_->input_finished(host_);
    }
}

void ReplayThread::replay(EtlReader &reader) {
    EventDispatch dispatch(host_, ops_, inputs_, reader.clock());
    const ReaderStats &stats = reader.stats();
    Event event;
    while (!stopping_.load(std::memory_order_relaxed) && reader.next(event)) {
        // Every corrupt buffer is a problem too: one comparison per event.
        if (stats.problem_count != reported_problems_) {
            report_damage(stats);
        }
        dispatch.dispatch(event);
    }
    if (stopping_.load()) {
        return;
    }
    dispatch.finish();
    report_damage(stats);
    if (reader.logfile().events_lost != 0) {
        ops_->report_drops(host_, kTraceWideCpu, reader.logfile().events_lost, DTRACE_DROP_LOGGER);
    }
    ops_->input_finished(host_);
}

} // namespace dtrace::etw::plugin
