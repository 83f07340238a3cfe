// event_fetches.cpp: the fetch steps of a pid probe, and the reads answered
// from what they fetched (see event_fetches.h).
#include "event_fetches.h"

#include <algorithm>
#include <array>

#include "fetched_memory.h"

namespace dtrace::pid {

std::vector<uprobe_fetch_step> fetch_steps_of(const dtrace_probe_usage &usage) {
    static_assert(UPROBE_FETCH_ARG == DTRACE_FETCH_ARG && UPROBE_FETCH_ABSOLUTE == DTRACE_FETCH_ABSOLUTE &&
                      UPROBE_FETCH_POINTER == DTRACE_FETCH_POINTER && UPROBE_FETCH_STRING == DTRACE_FETCH_STRING,
                  "the uprobe program's fetch steps use dtrace's numbering");
    std::vector<uprobe_fetch_step> steps;
    constexpr uint16_t kDropped = UINT16_MAX;
    std::array<uint16_t, DTRACE_USAGE_MAX_FETCHES> step_of{}; // a fetch's step, or kDropped
    const uint32_t count = std::min<uint32_t>(usage.nfetches, DTRACE_USAGE_MAX_FETCHES);
    for (uint32_t i = 0; i < count; ++i) {
        const dtrace_memory_fetch &f = usage.fetches[i];
        step_of[i] = kDropped;
        uprobe_fetch_step step{};
        step.base = f.base;
        step.flags = f.flags & UPROBE_FETCH_STRING;
        step.index = f.index;
        step.length = std::min<uint32_t>(f.length, UPROBE_FETCH_MAX_LENGTH);
        step.offset = f.offset;
        if (f.base == DTRACE_FETCH_POINTER) {
            if (f.index >= i || step_of[f.index] == kDropped)
                continue;
            step.index = step_of[f.index];
        } else if ((f.base != DTRACE_FETCH_ARG || f.index >= LIVE_MAX_ARGS) && f.base != DTRACE_FETCH_ABSOLUTE) {
            continue; // curthread, or an argument read from the stack
        }
        if (step.length == 0 || steps.size() == UPROBE_MAX_FETCHES)
            continue;
        step_of[i] = static_cast<uint16_t>(steps.size());
        steps.push_back(step);
    }
    return steps;
}

void EventFetches::set(const uprobe_tail &tail, std::span<const uint8_t> data) {
    fetched_ = std::span<const uprobe_fetched>(tail.fetched, std::min<uint32_t>(tail.nfetched, UPROBE_MAX_FETCHES));
    data_ = data;
}

std::optional<int64_t> EventFetches::read(uint64_t address, void *buffer, size_t length) const {
    // A read that failed at the event (a page not present then) answers nothing: the process is asked.
    for (const uprobe_fetched &f : fetched_)
        if (std::optional<int64_t> read =
                plugin_common::read_from_fetch(f, (f.flags & UPROBE_FETCH_STRING) != 0, data_, address, buffer, length))
            return read;
    return std::nullopt;
}

} // namespace dtrace::pid
