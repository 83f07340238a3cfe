// event_ring.cpp: draining the ring buffer.
#include "event_ring.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <sys/epoll.h>
#include <unistd.h>

#include "bpf/live_record.h"

namespace dtrace::live {

namespace {

// A record is held back this long after the drain that found it began, so
// that records stamped before it on other CPUs (committed late) come first.
constexpr uint64_t kHoldBackNs = 2'000'000;

// A drain hands the records on every this many bytes copied out of the ring
// (on_sample ends ring_buffer__consume() early), so that the copies reuse
// the same memory: under a burst the producers refill the ring as fast as it
// is read, and an unbounded copy grew by fresh pages (a page fault per 4 KB,
// which made the reader slower than ustack()'s 8 KB records arrived).
constexpr size_t kBatchBytes = 1u << 20;
constexpr int kBatchFull = -1;

// The programs' skipped firings are read this often while tracing (a system
// call per program, and fbt may have thousands), and once more at stop().
constexpr uint64_t kSkippedReadNs = 1'000'000'000;

uint64_t monotonic_now() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(ts.tv_nsec);
}

} // namespace

Result<std::unique_ptr<EventRing>> EventRing::open(int ring_fd, int drops_fd, uint32_t poll_ms,
                                                   RingCallbacks callbacks) {
    std::unique_ptr<EventRing> ring(new EventRing());
    ring->ring_ = ring_buffer__new(ring_fd, &EventRing::on_sample, ring.get(), nullptr);
    if (ring->ring_ == nullptr)
        return Error{std::string("cannot map the BPF ring buffer: ") + std::strerror(errno)};
    ring->epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
    epoll_event interest{};
    interest.events = EPOLLIN | EPOLLET;
    if (ring->epoll_fd_ < 0 || epoll_ctl(ring->epoll_fd_, EPOLL_CTL_ADD, ring_fd, &interest) != 0)
        return Error{std::string("cannot wait on the BPF ring buffer: ") + std::strerror(errno)};
    ring->drops_fd_ = drops_fd;
    ring->poll_ms_ = poll_ms;
    ring->callbacks_ = std::move(callbacks);
    int cpus = libbpf_num_possible_cpus();
    ring->drops_seen_.assign(cpus > 0 ? static_cast<size_t>(cpus) : 1, 0);
    return ring;
}

EventRing::~EventRing() {
    stop();
    if (ring_ != nullptr)
        ring_buffer__free(ring_);
    if (epoll_fd_ >= 0)
        close(epoll_fd_);
}

void EventRing::start() {
    if (running_.exchange(true))
        return;
    if (callbacks_.misses != nullptr)
        callbacks_.misses->take(); // firings skipped before tracing began would have been ignored
    thread_ = std::thread([this] { run(); });
}

void EventRing::stop() {
    if (running_.exchange(false))
        thread_.join();
    if (ring_ == nullptr)
        return;
    drain(true);
}

int EventRing::on_sample(void *self, void *data, size_t size) {
    auto *ring = static_cast<EventRing *>(self);
    if (size < sizeof(live_record))
        return 0; // not one of ours: never read past what the ring gave
    uint64_t timestamp;
    std::memcpy(&timestamp, data, sizeof timestamp);
    ring->order_.add(timestamp, std::span<const uint8_t>(static_cast<const uint8_t *>(data), size));
    ring->batch_bytes_ += size;
    return ring->batch_bytes_ >= kBatchBytes ? kBatchFull : 0;
}

void EventRing::run() {
    while (running_.load(std::memory_order_acquire)) {
        epoll_event event{};
        epoll_wait(epoll_fd_, &event, 1, static_cast<int>(poll_ms_)); // the watermark's wakeup, or the timeout
        drain(false);
    }
}

void EventRing::drain(bool all) {
    int consumed;
    do {
        const uint64_t horizon = all ? UINT64_MAX : monotonic_now() - kHoldBackNs;
        batch_bytes_ = 0;
        consumed = ring_buffer__consume(ring_);
        order_.release_until(horizon, callbacks_.deliver);
    } while (consumed == kBatchFull);
    report_drops(all);
}

void EventRing::report_drops(bool last) {
    if (!callbacks_.report_drops)
        return;
    report_skipped(last);
    if (drops_fd_ < 0)
        return;
    std::vector<uint64_t> counts(drops_seen_.size(), 0);
    uint32_t zero = 0;
    if (bpf_map_lookup_elem(drops_fd_, &zero, counts.data()) != 0)
        return;
    for (size_t cpu = 0; cpu < counts.size(); ++cpu) {
        if (counts[cpu] > drops_seen_[cpu]) {
            callbacks_.report_drops(static_cast<uint32_t>(cpu), counts[cpu] - drops_seen_[cpu]);
            drops_seen_[cpu] = counts[cpu];
        }
    }
}

void EventRing::report_skipped(bool last) {
    const uint64_t now = monotonic_now();
    if (callbacks_.misses == nullptr || (!last && now < next_skipped_read_))
        return;
    next_skipped_read_ = now + kSkippedReadNs;
    if (const uint64_t skipped = callbacks_.misses->take())
        callbacks_.report_drops(0, skipped);
}

} // namespace dtrace::live
