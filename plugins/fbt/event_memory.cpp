// event_memory.cpp: the fetch plan of a probe, and the loads answered from it.
#include "event_memory.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "fetched_memory.h"
#include "kernel_memory.h"

static_assert(FBT_MAX_FETCHES == DTRACE_USAGE_MAX_FETCHES, "one step per fetch dtrace may list");

namespace dtrace::fbt {

fbt_fetch_plan fetch_plan_of(const dtrace_probe_usage &usage) {
    fbt_fetch_plan plan{};
    constexpr uint16_t kDropped = UINT16_MAX;
    std::array<uint16_t, FBT_MAX_FETCHES> step_of{}; // a fetch's step in the plan
    const uint32_t count = std::min<uint32_t>(usage.nfetches, FBT_MAX_FETCHES);
    for (uint32_t i = 0; i < count; ++i) {
        const dtrace_memory_fetch &f = usage.fetches[i];
        step_of[i] = kDropped;
        fbt_fetch_step step{};
        step.base = f.base;
        step.flags = (f.flags & DTRACE_FETCH_STRING) ? FBT_FETCH_STRING : 0;
        step.index = f.index;
        step.length = std::min<uint32_t>(f.length, FBT_FETCH_MAX_LENGTH);
        step.offset = f.offset;
        if (f.base == DTRACE_FETCH_POINTER) {
            if (f.index >= i || step_of[f.index] == kDropped)
                continue;
            step.index = step_of[f.index];
        } else if (f.base == DTRACE_FETCH_ABSOLUTE) {
            if (static_cast<uint64_t>(f.offset) < kKernelAddressStart)
                continue;
        } else if (f.base != DTRACE_FETCH_ARG && f.base != DTRACE_FETCH_CURTHREAD) {
            continue;
        }
        if (step.length == 0)
            continue;
        step_of[i] = static_cast<uint16_t>(plan.nsteps);
        plan.steps[plan.nsteps++] = step;
    }
    return plan;
}

void add_user_strings(fbt_fetch_plan &plan, const dtrace_probe_usage &usage, uint32_t length) {
    for (uint16_t arg = 0; arg < LIVE_MAX_ARGS && plan.nsteps < FBT_MAX_FETCHES; ++arg) {
        if ((usage.string_args & (1u << arg)) == 0)
            continue;
        fbt_fetch_step step{};
        step.base = FBT_FETCH_ARG;
        step.flags = FBT_FETCH_STRING | FBT_FETCH_USER;
        step.index = arg;
        step.length = std::clamp<uint32_t>(length, 1, FBT_FETCH_MAX_LENGTH);
        plan.steps[plan.nsteps++] = step;
    }
}

std::optional<int64_t> EventMemory::read(uint64_t address, void *buffer, size_t length) const {
    for (const fbt_fetched &f : fetched_) {
        if (f.length < 0 && address == f.address && f.address != 0 && (f.flags & FBT_FETCH_USER) == 0)
            return -1; // the load faulted at the event
        if (std::optional<int64_t> read =
                plugin_common::read_from_fetch(f, (f.flags & FBT_FETCH_STRING) != 0, data_, address, buffer, length))
            return read;
    }
    return std::nullopt;
}

} // namespace dtrace::fbt
