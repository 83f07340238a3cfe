// event_fetches.cpp: the fetch steps of a pid probe, and the reads answered
// from what they fetched (see event_fetches.h).
#include "event_fetches.h"

#include <algorithm>

#include "fetch_steps.h"
#include "fetched_memory.h"

namespace dtrace::pid {

std::vector<live_fetch_step> fetch_steps_of(const dtrace_probe_usage &usage) {
    // The uprobe program reads the process: not curthread (the kernel's), nor arguments past the registers.
    return plugin_common::fetch_steps_of<live_fetch_step>(
        usage, UPROBE_MAX_FETCHES, UPROBE_FETCH_MAX_LENGTH, [](const dtrace_memory_fetch &f) {
            return (f.base == DTRACE_FETCH_ARG && f.index < LIVE_MAX_ARGS) || f.base == DTRACE_FETCH_ABSOLUTE;
        });
}

void EventFetches::set(const uprobe_tail &tail, std::span<const uint8_t> data) {
    fetched_ = std::span<const live_fetched>(tail.fetched, std::min<uint32_t>(tail.nfetched, UPROBE_MAX_FETCHES));
    data_ = data;
}

std::optional<int64_t> EventFetches::read(uint64_t address, void *buffer, size_t length) const {
    // A read that failed at the event (a page not present then) answers nothing: the process is asked.
    for (const live_fetched &f : fetched_)
        if (std::optional<int64_t> read =
                plugin_common::read_from_fetch(f, (f.flags & LIVE_FETCH_STRING) != 0, data_, address, buffer, length))
            return read;
    return std::nullopt;
}

} // namespace dtrace::pid
