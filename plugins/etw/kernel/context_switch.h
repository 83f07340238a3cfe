// context_switch.h: the fields of a CSwitch event, read at fixed offsets.
//
// Every context switch updates the thread table (kernel_state.h), whether or
// not a probe wants the event, and context switches are about half the
// records of a busy kernel trace: rather than decode them with the MOF table
// (mof_classes.h), the state reads the fields it keeps straight from the
// payload. The CSwitch layout is the same in every version and for both
// pointer sizes (it has no pointer field); mof_classes_test checks these
// offsets against the table's CSwitch row. As with the table, a field past
// the end of a short payload reads as 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "reader/le_bytes.h"

namespace dtrace::etw::plugin::kernel {

inline constexpr uint8_t kContextSwitchOpcode = 36;

struct ContextSwitch {
    uint32_t new_thread = 0;
    uint32_t old_thread = 0;
    int8_t new_priority = 0;
    int8_t old_priority = 0;
    int8_t old_wait_reason = 0;
    int8_t old_wait_mode = 0;
    int8_t old_state = 0;
    int8_t old_ideal_processor = 0;
    uint32_t new_wait_time = 0;

    // Offsets in the payload (wmicore.mof's CSwitch).
    static constexpr size_t kNewThreadId = 0, kOldThreadId = 4, kNewThreadPriority = 8, kOldThreadPriority = 9,
                            kOldThreadWaitReason = 12, kOldThreadWaitMode = 13, kOldThreadState = 14,
                            kOldThreadWaitIdealProcessor = 15, kNewThreadWaitTime = 16;
    static constexpr size_t kFieldsEnd = kNewThreadWaitTime + 4;
};

// With whole true the payload holds every field: no field is checked.
template <bool whole> ContextSwitch read_context_switch(const uint8_t *p, size_t size) {
    const auto u32 = [&](size_t at) { return whole || at + 4 <= size ? load_u32(p + at) : 0u; };
    const auto i8 = [&](size_t at) { return static_cast<int8_t>(whole || at < size ? p[at] : 0); };
    using C = ContextSwitch;
    return {u32(C::kNewThreadId),        u32(C::kOldThreadId),
            i8(C::kNewThreadPriority),   i8(C::kOldThreadPriority),
            i8(C::kOldThreadWaitReason), i8(C::kOldThreadWaitMode),
            i8(C::kOldThreadState),      i8(C::kOldThreadWaitIdealProcessor),
            u32(C::kNewThreadWaitTime)};
}

inline ContextSwitch decode_context_switch(std::span<const uint8_t> payload) {
    return payload.size() >= ContextSwitch::kFieldsEnd ? read_context_switch<true>(payload.data(), payload.size())
                                                       : read_context_switch<false>(payload.data(), payload.size());
}

} // namespace dtrace::etw::plugin::kernel
