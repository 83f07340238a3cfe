// event_memory.cpp: the fetch plan of a probe, and the loads answered from it.
#include "event_memory.h"

#include <algorithm>
#include <vector>

#include "fetch_steps.h"
#include "fetched_memory.h"
#include "kernel_memory.h"

static_assert(FBT_MAX_FETCHES == DTRACE_USAGE_MAX_FETCHES, "one step per fetch dtrace may list");
static_assert(dtrace::fbt::kKernelAddressStart == LIVE_KERNEL_ADDRESS_START, "one split of the address space");

namespace dtrace::fbt {

fbt_fetch_plan fetch_plan_of(const dtrace_probe_usage &usage) {
    // A constant address below the kernel's half (a user-space symbol) is left
    // for the late reader; a user address an argument or pointer holds (copyin())
    // is read from the process by the program.
    const std::vector<live_fetch_step> steps = plugin_common::fetch_steps_of<live_fetch_step>(
        usage, FBT_MAX_FETCHES, FBT_FETCH_MAX_LENGTH, [](const dtrace_memory_fetch &f) {
            return (f.base == DTRACE_FETCH_ARG && f.index < LIVE_MAX_ARGS) || f.base == DTRACE_FETCH_CURTHREAD ||
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
        step.flags = LIVE_FETCH_STRING;
        step.index = arg;
        step.length = std::clamp<uint32_t>(length, 1, FBT_FETCH_MAX_LENGTH);
        plan.steps[plan.nsteps++] = step;
    }
}

std::optional<int64_t> EventMemory::read(uint64_t address, void *buffer, size_t length) const {
    for (const live_fetched &f : fetched_) {
        if (f.length < 0 && address == f.address && f.address >= kKernelAddressStart)
            return -1; // the load faulted at the event
        if (std::optional<int64_t> read =
                plugin_common::read_from_fetch(f, (f.flags & LIVE_FETCH_STRING) != 0, data_, address, buffer, length))
            return read;
    }
    return std::nullopt;
}

} // namespace dtrace::fbt
