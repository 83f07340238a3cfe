// replay_thread.cpp: the replay loop, damage reports and the end of input.
#include "replay_thread.h"

#include <algorithm>
#include <cstddef>
#include <filesystem>
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
    Result<EtlReader> opened = open_replay(paths_);
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
        const std::string message = std::string("replay of ") + session_name(paths_) + " stopped: " + e.what();
        ops_->report_error(host_, message.c_str());
        ops_->input_finished(host_);
    }
}

uint64_t ReplayThread::buffers_in_file(const EtlReader &reader) const {
    if (reader.logfile().buffers_written != 0)
        return reader.logfile().buffers_written;
    // Loggers that leave the count at 0: the file's size in buffers (an
    // archive member's is not known without unpacking it, nor are several
    // files' buffer sizes one).
    if (paths_.size() != 1)
        return 0;
    const std::string &path = paths_.front();
    std::error_code ec;
    const uintmax_t bytes = std::filesystem::file_size(path, ec);
    const uint32_t buffer_size = reader.logfile().buffer_size;
    const bool archive = path.size() > 4 && path.compare(path.size() - 4, 4, ".zip") == 0;
    return ec || archive || buffer_size == 0 ? 0 : bytes / buffer_size;
}

void ReplayThread::report_progress(const EtlReader &reader, const ReaderStats &stats) {
    if (ops_->struct_size < offsetof(dtrace_host_ops, report_progress) + sizeof ops_->report_progress ||
        ops_->report_progress == nullptr)
        return;
    if (progress_total_ == 0)
        progress_total_ = buffers_in_file(reader);
    if (progress_total_ != 0)
        ops_->report_progress(host_, std::min<uint64_t>(stats.buffers, progress_total_), progress_total_, stats.events);
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
        // Progress by the buffers read of those the file holds, once a buffer.
        if (stats.buffers != progress_buffers_) {
            progress_buffers_ = stats.buffers;
            report_progress(reader, stats);
        }
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
