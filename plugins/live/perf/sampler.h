// sampler.h: sampling perf events on CPUs, read by one thread in time order.
//
// A Sampler owns the events of a session (one per CPU and sampling probe),
// each with its mmap ring. One reader thread polls them all with a timeout;
// the kernel wakes it only when a ring passes its watermark (a quarter of the
// ring), never per record. Each pass drains every ring, orders the records of
// the pass by timestamp across CPUs, and hands them to the RecordSink:
// samples with the tag their event was added with, side-band records (comm
// and mmap, from one event per CPU) so that names and mappings are known when
// the samples after them are symbolized, and lost-record counts. stop()
// disables the events, drains what is left, joins the thread and closes
// everything; the destructor stops.
#pragma once

#include "perf_event.h"
#include "records.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace dtrace::live::perf {

class RecordSink {
  public:
    virtual ~RecordSink() = default;
    virtual void on_sample(uint64_t tag, const Sample &sample) = 0;
    virtual void on_comm(const CommRecord &) {}
    virtual void on_mmap(const MmapRecord &) {}
    virtual void on_task(const TaskRecord &) {}
    virtual void on_lost(uint32_t cpu, uint64_t count) = 0;
};

struct SamplerOptions {
    size_t ring_pages = 512; // per event; a power of two
    int poll_timeout_ms = 50;
};

class Sampler {
  public:
    Sampler(RecordSink &sink, SamplerOptions options);
    ~Sampler();
    Sampler(const Sampler &) = delete;
    Sampler &operator=(const Sampler &) = delete;

    // Opens `attr` (a sampling event: sample_type as `layout` says) on each
    // of `cpus` for every thread there, disabled until start(). The first
    // event of each CPU also reports comm and mmap records. False with
    // `error` when an event cannot be opened or mapped.
    bool add(perf_event_attr attr, const RecordLayout &layout, uint64_t tag, const std::vector<int> &cpus,
             std::string &error);
    // The same for the threads of process `pid` only, and the processes and
    // threads it creates later (inherited: the kernel maps the rings of
    // inherited events only per CPU), with the process's comm and mmap records.
    bool add_process(perf_event_attr attr, const RecordLayout &layout, uint64_t tag, pid_t pid,
                     const std::vector<int> &cpus, std::string &error);
    bool empty() const { return events_.empty(); }

    // Enables every event and starts the reader thread.
    bool start(std::string &error);
    void stop();

  private:
    // attr as a sampling event of `layout`, disabled, woken at a quarter of its ring.
    perf_event_attr sampling(perf_event_attr attr, const RecordLayout &layout) const;
    struct Source {
        Event event;
        RecordLayout layout;
        uint64_t tag;
        std::vector<uint8_t> pending; // this pass's records
    };
    void run();
    // Drains every ring and dispatches the records in time order.
    void pass();
    void dispatch(const Source &source, std::span<const uint8_t> record);

    RecordSink &sink_;
    SamplerOptions options_;
    std::vector<Source> events_;
    std::vector<int> tracked_cpus_;
    int wake_fd_ = -1; // eventfd: stop() wakes the poll
    std::atomic<bool> stopping_{false};
    std::thread reader_;
};

} // namespace dtrace::live::perf
