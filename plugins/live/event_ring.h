// event_ring.h: the plugin thread that drains a BPF ring buffer.
//
// The BPF programs never wake the consumer per event (BPF_RB_NO_WAKEUP up to
// a watermark): this thread waits on the ring with a poll timeout (an
// edge-triggered epoll: the ring's own readiness is level-triggered, "data
// waiting", which under steady traffic would return at once), consumes
// what has accumulated, hands the records on in timestamp order
// (event_order.h) and reports the records the ring had no room for
// (live_drops, per CPU) as drops, with the firings the kernel skipped in
// the plugin's programs (recursion_misses.h). stop() drains what is left,
// so nothing committed before it is lost; the caller detaches the programs
// first.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "event_order.h"
#include "recursion_misses.h"
#include "result.h"

struct ring_buffer;

namespace dtrace::live {

struct RingCallbacks {
    // One record (a live_record and its captures), in timestamp order.
    std::function<void(std::span<const uint8_t>)> deliver;
    // `count` more records lost on `cpu` since the last report (skipped
    // firings, whose counters are per program, on CPU 0).
    std::function<void(uint32_t cpu, uint64_t count)> report_drops;
    // The plugin's programs whose skipped firings are reported as drops too
    // (nullptr: none); it outlives the ring.
    RecursionMisses *misses = nullptr;
};

class EventRing {
  public:
    // ring_fd, drops_fd: the live_events and live_drops maps.
    static Result<std::unique_ptr<EventRing>> open(int ring_fd, int drops_fd, uint32_t poll_ms,
                                                   RingCallbacks callbacks);
    ~EventRing();
    EventRing(const EventRing &) = delete;
    EventRing &operator=(const EventRing &) = delete;

    // Starts the thread. Firings the kernel skipped before are not
    // reported: tracing had not begun.
    void start();
    // Joins the thread, then delivers every record still in the ring.
    void stop();

  private:
    EventRing() = default;
    static int on_sample(void *self, void *data, size_t size);
    void run();
    // Copies what the ring holds and hands on the records stamped before
    // the hold-back horizon (`all`: every record), a batch at a time.
    void drain(bool all);
    // `last`: stop()'s report.
    void report_drops(bool last);
    // The firings the kernel skipped: read once a second, and at the last report.
    void report_skipped(bool last);

    ring_buffer *ring_ = nullptr;
    int epoll_fd_ = -1; // the ring's map, edge-triggered: woken by the watermark only
    int drops_fd_ = -1;
    uint32_t poll_ms_ = 0;
    RingCallbacks callbacks_;
    EventOrder order_;
    size_t batch_bytes_ = 0;           // copied by the current ring_buffer__consume()
    std::vector<uint64_t> drops_seen_; // per CPU
    uint64_t next_skipped_read_ = 0;   // monotonic ns
    std::atomic<bool> running_{false};
    std::thread thread_;
};

} // namespace dtrace::live
