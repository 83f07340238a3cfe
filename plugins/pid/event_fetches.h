// event_fetches.h: the process memory a pid probe's clauses read, fetched
// by the uprobe program at the event (dtrace's fetch plan: copyin() and
// copyinstr() of addresses computed from the arguments; the steps of
// live/bpf/uprobe_record.h), and the reads of the clause answered from it,
// so that they see the bytes the call saw rather than what the process
// holds when dtrace runs the clause.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <dtrace/provider.h>

#include "bpf/uprobe_record.h"

namespace dtrace::pid {

// The steps of `usage`'s fetch plan the uprobe program can run: those based
// on an argument register (arg0..arg5), an absolute address or the pointer
// an earlier kept step read, at most UPROBE_MAX_FETCHES.
std::vector<live_fetch_step> fetch_steps_of(const dtrace_probe_usage &usage);

// One event's fetched memory.
class EventFetches {
  public:
    void set(const uprobe_tail &tail, std::span<const uint8_t> data);
    void clear() { fetched_ = {}; }
    bool empty() const { return fetched_.empty(); }
    // `length` bytes at `address` from what was fetched (fewer for a string
    // whose NUL was fetched): the count, or nothing when that was not
    // fetched whole (the caller reads the process then).
    std::optional<int64_t> read(uint64_t address, void *buffer, size_t length) const;

  private:
    std::span<const live_fetched> fetched_;
    std::span<const uint8_t> data_;
};

} // namespace dtrace::pid
