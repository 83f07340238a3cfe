// mapping_tracker.cpp: the dummy events and the records they bring to the maps.
#include "mapping_tracker.h"

#include <algorithm>
#include <cstring>
#include <ctime>
#include <unistd.h>

#include "records.h"

namespace dtrace::live::stacks {

namespace {

// Per CPU: about 10 s of a busy build's execs and mappings between two
// events that drain them.
constexpr size_t kRingPages = 128;
// The records carry a sample_id trailer of pid/tid and time only.
const perf::RecordLayout kLayout{PERF_SAMPLE_TID | PERF_SAMPLE_TIME, 0};

perf_event_attr side_band_attr() {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_DUMMY;
    attr.sample_type = kLayout.sample_type;
    attr.sample_id_all = 1;
    attr.mmap = attr.mmap2 = 1;
    attr.comm = attr.comm_exec = 1;
    attr.task = 1;
    attr.use_clockid = 1;
    attr.clockid = CLOCK_MONOTONIC;
    attr.watermark = 1;
    attr.wakeup_watermark = static_cast<uint32_t>(kRingPages * static_cast<size_t>(sysconf(_SC_PAGESIZE)) / 2);
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    return attr;
}

} // namespace

std::unique_ptr<MappingTracker> MappingTracker::open(std::string &error) {
    std::unique_ptr<MappingTracker> tracker(new MappingTracker);
    const long cpus = std::max(sysconf(_SC_NPROCESSORS_ONLN), 1L);
    const perf_event_attr attr = side_band_attr();
    for (int cpu = 0; cpu < cpus; ++cpu) {
        perf::Event event = perf::Event::open(attr, -1, cpu, kRingPages, error);
        if (!event.valid()) {
            error = "cannot follow process mappings for ustack(): " + error;
            return nullptr;
        }
        tracker->events_.push_back(std::move(event));
    }
    return tracker;
}

void apply_side_band(std::span<const uint8_t> record, ProcessMaps &maps) {
    if (auto comm = perf::parse_comm(record)) {
        if (comm->exec && comm->pid == comm->tid)
            maps.exec(comm->pid);
    } else if (auto mmap = perf::parse_mmap2(record)) {
        maps.add(mmap->pid, {mmap->start, mmap->start + mmap->length, mmap->pgoff, std::string(mmap->path)});
    } else if (auto task = perf::parse_task(record)) {
        const bool process = task->pid == task->tid;
        if (process && !task->exit && task->pid != task->ppid)
            maps.fork(task->ppid, task->pid);
        else if (process && task->exit)
            maps.exit(task->pid);
    }
}

void MappingTracker::catch_up(uint64_t until, ProcessMaps &maps) {
    std::lock_guard lock(mutex_);
    for (perf::Event &event : events_) {
        drained_.clear();
        event.drain(drained_);
        for (size_t at = 0; at + sizeof(perf_event_header) <= drained_.size();) {
            perf_event_header header;
            std::memcpy(&header, drained_.data() + at, sizeof header);
            if (header.size < sizeof header || at + header.size > drained_.size())
                break;
            const std::span<const uint8_t> record(drained_.data() + at, header.size);
            pending_.push_back({perf::record_time(record, kLayout), {record.begin(), record.end()}});
            at += header.size;
        }
    }
    // Each ring is in time order; the merge keeps a ring's ties in order.
    std::stable_sort(pending_.begin(), pending_.end(),
                     [](const Pending &a, const Pending &b) { return a.time < b.time; });
    auto due = std::find_if(pending_.begin(), pending_.end(), [&](const Pending &p) { return p.time > until; });
    for (auto it = pending_.begin(); it != due; ++it)
        apply_side_band(it->bytes, maps);
    pending_.erase(pending_.begin(), due);
}

} // namespace dtrace::live::stacks
