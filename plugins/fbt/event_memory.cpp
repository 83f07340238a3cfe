// event_memory.cpp: the fetch plan of a probe, and the loads answered from it.
#include "event_memory.h"

#include <algorithm>
#include <vector>

#include "fetch_steps.h"
#include "fetched_memory.h"
#include "kernel_memory.h"

static_assert(FBT_MAX_FETCHES == DTRACE_USAGE_MAX_FETCHES, "one step per fetch dtrace may list");

namespace dtrace::fbt {

fbt_fetch_plan fetch_plan_of(const dtrace_probe_usage &usage) {
    // The kernel's memory: an absolute address below its half is the process's.
    const std::vector<live_fetch_step> steps = plugin_common::fetch_steps_of<live_fetch_step>(
        usage, FBT_MAX_FETCHES, FBT_FETCH_MAX_LENGTH, [](const dtrace_memory_fetch &f) {
            return f.base == DTRACE_FETCH_ARG || f.base == DTRACE_FETCH_CURTHREAD ||
                   (f.base == DTRACE_FETCH_ABSOLUTE && static_cast<uint64_t>(f.offset) >= kKernelAddressStart);
        });
    fbt_fetch_plan plan{};
    plan.nsteps = static_cast<uint32_t>(steps.size());
    std::copy(steps.begin(), steps.end(), plan.steps);
    return plan;
}

void add_user_strings(fbt_fetch_plan &plan, const dtrace_probe_usage &usage, uint32_t length) {
    for (uint16_t arg = 0; arg < LIVE_MAX_ARGS && plan.nsteps < FBT_MAX_FETCHES; ++arg) {
        if ((usage.string_args & (1u << arg)) == 0)
            continue;
        live_fetch_step step{};
        step.base = LIVE_FETCH_ARG;
        step.flags = LIVE_FETCH_STRING | LIVE_FETCH_USER;
        step.index = arg;
        step.length = std::clamp<uint32_t>(length, 1, FBT_FETCH_MAX_LENGTH);
        plan.steps[plan.nsteps++] = step;
    }
}

std::optional<int64_t> EventMemory::read(uint64_t address, void *buffer, size_t length) const {
    for (const live_fetched &f : fetched_) {
        if (f.length < 0 && address == f.address && f.address != 0 && (f.flags & LIVE_FETCH_USER) == 0)
            return -1; // the load faulted at the event
        if (std::optional<int64_t> read =
                plugin_common::read_from_fetch(f, (f.flags & LIVE_FETCH_STRING) != 0, data_, address, buffer, length))
            return read;
    }
    return std::nullopt;
}

} // namespace dtrace::fbt
