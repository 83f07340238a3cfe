// sampler.cpp: the reader thread of the sampling events.
#include "sampler.h"

#include <algorithm>
#include <cstring>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace dtrace::live::perf {

Sampler::Sampler(RecordSink &sink, SamplerOptions options) : sink_(sink), options_(options) {}

Sampler::~Sampler() {
    stop();
    events_.clear();
    if (wake_fd_ >= 0)
        close(wake_fd_);
}

perf_event_attr Sampler::sampling(perf_event_attr attr, const RecordLayout &layout) const {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    attr.size = sizeof attr;
    attr.disabled = 1;
    attr.sample_type = layout.sample_type;
    attr.sample_regs_user = layout.regs_user_mask;
    attr.sample_id_all = 1;
    attr.watermark = 1;
    attr.wakeup_watermark = static_cast<uint32_t>(options_.ring_pages * page / 4);
    return attr;
}

bool Sampler::add_process(perf_event_attr attr, const RecordLayout &layout, uint64_t tag, pid_t pid,
                          const std::vector<int> &cpus, std::string &error) {
    attr = sampling(attr, layout);
    attr.inherit = 1;
    attr.comm = attr.comm_exec = attr.mmap = attr.mmap2 = attr.task = 1;
    for (int cpu : cpus) {
        Event event = Event::open(attr, pid, cpu, options_.ring_pages, error);
        if (!event.valid())
            return false;
        events_.push_back({std::move(event), layout, tag, {}});
    }
    return true;
}

bool Sampler::add(perf_event_attr attr, const RecordLayout &layout, uint64_t tag, const std::vector<int> &cpus,
                  std::string &error) {
    attr = sampling(attr, layout);
    for (int cpu : cpus) {
        perf_event_attr on_cpu = attr;
        const bool tracks = std::find(tracked_cpus_.begin(), tracked_cpus_.end(), cpu) == tracked_cpus_.end();
        on_cpu.comm = on_cpu.comm_exec = on_cpu.mmap = on_cpu.mmap2 = on_cpu.task = tracks ? 1 : 0;
        Event event = Event::open(on_cpu, -1, cpu, options_.ring_pages, error);
        if (!event.valid())
            return false;
        if (tracks)
            tracked_cpus_.push_back(cpu);
        events_.push_back({std::move(event), layout, tag, {}});
    }
    return true;
}

bool Sampler::start(std::string &error) {
    if (wake_fd_ < 0)
        wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wake_fd_ < 0) {
        error = std::string("eventfd: ") + std::strerror(errno);
        return false;
    }
    for (Source &source : events_) {
        if (!source.event.enable()) {
            error =
                "cannot enable a perf event on cpu " + std::to_string(source.event.cpu()) + ": " + std::strerror(errno);
            for (Source &enabled : events_)
                enabled.event.disable();
            return false;
        }
    }
    stopping_ = false;
    reader_ = std::thread(&Sampler::run, this);
    return true;
}

void Sampler::stop() {
    if (!reader_.joinable())
        return;
    for (Source &source : events_)
        source.event.disable();
    stopping_ = true;
    const uint64_t one = 1;
    [[maybe_unused]] ssize_t written = write(wake_fd_, &one, sizeof one);
    reader_.join();
}

void Sampler::run() {
    std::vector<pollfd> fds;
    for (const Source &source : events_)
        fds.push_back({source.event.fd(), POLLIN, 0});
    fds.push_back({wake_fd_, POLLIN, 0});
    while (!stopping_.load(std::memory_order_acquire)) {
        poll(fds.data(), fds.size(), options_.poll_timeout_ms);
        pass();
    }
    pass(); // what the rings held when the events were disabled
}

void Sampler::pass() {
    struct Entry {
        uint64_t time;
        uint32_t source;
        uint32_t offset;
    };
    std::vector<Entry> order;
    for (uint32_t i = 0; i < events_.size(); i++) {
        Source &source = events_[i];
        source.pending.clear();
        source.event.drain(source.pending);
        for (size_t at = 0; at + sizeof(perf_event_header) <= source.pending.size();) {
            perf_event_header header;
            std::memcpy(&header, source.pending.data() + at, sizeof header);
            std::span<const uint8_t> record(source.pending.data() + at, header.size);
            order.push_back({record_time(record, source.layout), i, static_cast<uint32_t>(at)});
            at += header.size;
        }
    }
    // Ties keep ring order, so a ring's side-band records stay before its samples.
    std::stable_sort(order.begin(), order.end(), [](const Entry &a, const Entry &b) { return a.time < b.time; });
    for (const Entry &entry : order) {
        const Source &source = events_[entry.source];
        perf_event_header header;
        std::memcpy(&header, source.pending.data() + entry.offset, sizeof header);
        dispatch(source, {source.pending.data() + entry.offset, header.size});
    }
}

void Sampler::dispatch(const Source &source, std::span<const uint8_t> record) {
    perf_event_header header;
    std::memcpy(&header, record.data(), sizeof header);
    switch (header.type) {
    case PERF_RECORD_SAMPLE:
        if (auto sample = parse_sample(record, source.layout))
            sink_.on_sample(source.tag, *sample);
        break;
    case PERF_RECORD_COMM:
        if (auto comm = parse_comm(record))
            sink_.on_comm(*comm);
        break;
    case PERF_RECORD_MMAP2:
        if (auto mmap = parse_mmap2(record))
            sink_.on_mmap(*mmap);
        break;
    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT:
        if (auto task = parse_task(record))
            sink_.on_task(*task);
        break;
    case PERF_RECORD_LOST:
        if (auto lost = parse_lost(record))
            sink_.on_lost(static_cast<uint32_t>(source.event.cpu()), lost->lost);
        break;
    default:
        break;
    }
}

} // namespace dtrace::live::perf
