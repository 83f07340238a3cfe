// fetch_steps.h: the steps a plugin's BPF program runs at the event to read
// the memory a probe's clauses will read (dtrace's fetch plan,
// dtrace_probe_usage.fetches: pid's copyin(), fbt's kernel loads), made the
// same way for every plugin; what each plugin's program can read is its
// own (the `runs` predicate). The answers come back through
// fetched_memory.h.
#ifndef DTRACE_PLUGINS_COMMON_FETCH_STEPS_H
#define DTRACE_PLUGINS_COMMON_FETCH_STEPS_H

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include <dtrace/provider.h>

namespace dtrace::plugin_common {

// The steps (Step: live/bpf/live_fetch.h's, numbered as dtrace's fetches)
// of `usage`'s fetches based on an argument, curthread or an absolute
// address that `runs(fetch)` accepts, and of those based on the pointer a
// kept step reads (its index renumbered); each of at most `max_length`
// bytes, at most `max_steps` of them. The others are left out: the clause
// then reads that memory late, when it runs.
template <typename Step, typename Runs>
std::vector<Step> fetch_steps_of(const dtrace_probe_usage &usage, size_t max_steps, uint32_t max_length, Runs runs) {
    std::vector<Step> steps;
    constexpr uint16_t kDropped = UINT16_MAX;
    std::array<uint16_t, DTRACE_USAGE_MAX_FETCHES> step_of{}; // a fetch's step, or kDropped
    const uint32_t count = std::min<uint32_t>(usage.nfetches, DTRACE_USAGE_MAX_FETCHES);
    for (uint32_t i = 0; i < count; ++i) {
        const dtrace_memory_fetch &f = usage.fetches[i];
        step_of[i] = kDropped;
        Step step{};
        step.base = f.base;
        step.flags = f.flags & DTRACE_FETCH_STRING;
        step.index = f.index;
        step.length = std::min<uint32_t>(f.length, max_length);
        step.offset = f.offset;
        if (f.base == DTRACE_FETCH_POINTER) {
            if (f.index >= i || step_of[f.index] == kDropped)
                continue;
            step.index = step_of[f.index];
        } else if (!runs(f)) {
            continue;
        }
        if (step.length == 0 || steps.size() == max_steps)
            continue;
        step_of[i] = static_cast<uint16_t>(steps.size());
        steps.push_back(step);
    }
    return steps;
}

} // namespace dtrace::plugin_common

#endif
