// mapping_tracker.h: follows the executable mappings of every process from
// the kernel's perf side-band records, so that a process that has exited
// before its events are drained still has its user stacks unwound and named
// (its /proc/PID/maps is gone by then).
//
// One software dummy event per online CPU, system-wide, counts nothing and
// reports the records the kernel writes as processes run: PERF_RECORD_MMAP2
// for executable file mappings (attr.mmap, not mmap_data), PERF_RECORD_COMM
// with the exec flag, PERF_RECORD_FORK and PERF_RECORD_EXIT (attr.task).
// Their times are CLOCK_MONOTONIC (attr.clockid), the clock of
// bpf_ktime_get_ns(), so that catch_up() applies to the maps exactly the
// records that came before an event of a BPF program: an exec after the
// event does not wipe the mappings its stack needs. Nothing wakes anyone:
// the rings are drained when an event is unwound. Should a ring fill up
// between two such events (records lost), a process whose records were
// dropped is read from /proc at first sight, as without the tracker.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "perf_event.h"
#include "process_maps.h"

namespace dtrace::live::stacks {

// What one side-band record changes in `maps` (an exec, a mapping, a fork,
// an exit); other records change nothing.
void apply_side_band(std::span<const uint8_t> record, ProcessMaps &maps);

class MappingTracker {
  public:
    // The events, enabled now; nullptr with `error` saying why.
    static std::unique_ptr<MappingTracker> open(std::string &error);

    // Applies to `maps`, in time order, every record up to `until` (ns of
    // CLOCK_MONOTONIC); later ones wait for a later event.
    void catch_up(uint64_t until, ProcessMaps &maps);

  private:
    struct Pending {
        uint64_t time;
        std::vector<uint8_t> bytes;
    };
    MappingTracker() = default;

    std::mutex mutex_;
    std::vector<perf::Event> events_;
    std::vector<uint8_t> drained_;
    std::vector<Pending> pending_; // drained, after the last event's time
};

} // namespace dtrace::live::stacks
