// replay_thread.h: the thread that replays the trace through the host.
//
// One thread reads the file a second time, in timestamp order, and hands
// each event to the dispatcher; a single thread keeps the firing order, and
// so the output, the same on every run. It checks a stop flag before each
// event so that stop() (after exit(), ^C or an error) returns promptly, and
// at the end of the file it tells the host, which then fires END.
//
// Damage does not stop a replay: the reader skips a corrupt buffer and goes
// on. Each newly skipped buffer is reported as it is met, as a drop of kind
// CORRUPT, with the reader's message naming the file and offset; the events
// the logger itself lost (the logfile header's EventsLost) are reported at
// the end as what they are (DTRACE_DROP_LOGGER), not as this session's drops.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <dtrace/provider.h>

#include "event_dispatch.h"
#include "reader/etl_reader.h"

namespace dtrace::etw::plugin {

class ReplayThread {
  public:
    ReplayThread(dtrace_host *host, const dtrace_host_ops *ops, std::vector<std::string> paths, ReplayInputs inputs)
        : host_(host), ops_(ops), paths_(std::move(paths)), inputs_(inputs) {}
    ~ReplayThread() { stop(); }
    ReplayThread(const ReplayThread &) = delete;
    ReplayThread &operator=(const ReplayThread &) = delete;

    // Opens the file and starts the thread. Returns 0, or -1 after report_error.
    int start();
    // Stops the thread and joins it; harmless when it never started.
    void stop();

  private:
    void run(EtlReader reader);
    void replay(EtlReader &reader);
    void report_damage(const ReaderStats &stats);
    // The host's progress line: buffers read of those the file says it holds.
    void report_progress(const EtlReader &reader, const ReaderStats &stats);
    uint64_t buffers_in_file(const EtlReader &reader) const;

    dtrace_host *host_;
    const dtrace_host_ops *ops_;
    std::vector<std::string> paths_; // the -E files
    ReplayInputs inputs_;
    std::atomic<bool> stopping_{false};
    std::thread thread_;
    uint64_t reported_problems_ = 0;
    uint64_t reported_corrupt_buffers_ = 0;
    uint64_t progress_buffers_ = 0; // stats.buffers when progress was last reported
    uint64_t progress_total_ = 0;   // buffers in the file, once known
};

} // namespace dtrace::etw::plugin
