// stack_walk.cpp: decoding StackWalk/Stack events.
#include "stack_walk.h"

#include <algorithm>

#include "reader/extended_items.h"
#include "reader/kernel_groups.h"
#include "reader/le_bytes.h"

namespace dtrace::etw::plugin {

namespace {

constexpr uint16_t kStackWalkHook = 0x1820; // StackWalk group, opcode 32 (Stack)
constexpr size_t kTimestampAt = 0;
constexpr size_t kProcessAt = 8;
constexpr size_t kThreadAt = 12;
constexpr size_t kFramesAt = 16;
constexpr uint8_t kPointerSize32 = 4;
// The lowest kernel address of x64 (canonical upper half) and of x86 (2 GB split).
constexpr uint64_t kKernelBase64 = 0xFFFF800000000000ull;
constexpr uint64_t kKernelBase32 = 0x80000000ull;

} // namespace

bool is_kernel_address(uint64_t address, uint8_t pointer_size) {
    return address >= (pointer_size == kPointerSize32 ? kKernelBase32 : kKernelBase64);
}

const Guid &stack_walk_class() {
    static const Guid guid = kernel_class_guid(kStackWalkHook);
    return guid;
}

bool is_stack_walk(const Event &event) {
    return event.opcode == kStackWalkOpcode && event.provider == stack_walk_class();
}

bool decode_stack_walk(const Event &event, WalkedStack &out) {
    const std::span<const uint8_t> p = event.payload;
    if (p.size() < kFramesAt) {
        return false;
    }
    out.event_timestamp = load_i64(p.data() + kTimestampAt);
    out.pid = load_u32(p.data() + kProcessAt);
    out.tid = load_u32(p.data() + kThreadAt);
    const bool narrow = event.pointer_size == kPointerSize32;
    const size_t pointer = narrow ? sizeof(uint32_t) : sizeof(uint64_t);
    out.frames.clear();
    out.kernel_depth = 0;
    for (size_t at = kFramesAt; at + pointer <= p.size(); at += pointer) {
        const uint64_t pc = narrow ? load_u32(p.data() + at) : load_u64(p.data() + at);
        out.frames.push_back(pc);
        out.kernel_depth +=
            is_kernel_address(pc, event.pointer_size) && out.kernel_depth + 1 == out.frames.size() ? 1 : 0;
    }
    return true;
}

bool decode_extended_stack(const Event &event, WalkedStack &out) {
    for (ExtendedItem item : ExtendedItems(event)) {
        std::optional<StackTrace> trace = stack_trace(item);
        if (!trace) {
            continue;
        }
        out.event_timestamp = event.timestamp;
        out.pid = event.pid;
        out.tid = event.tid;
        out.frames.clear();
        out.kernel_depth = 0;
        for (size_t i = 0; i < trace->depth(); ++i) {
            const uint64_t pc = trace->frame(i);
            out.frames.push_back(pc);
            out.kernel_depth +=
                is_kernel_address(pc, trace->pointer_size) && out.kernel_depth + 1 == out.frames.size() ? 1 : 0;
        }
        return true;
    }
    return false;
}

const WalkedStack *CarriedStacks::of(const Event &event) {
    if (decoded_ && std::ranges::equal(event.extended, items_)) {
        stack_.event_timestamp = event.timestamp;
        stack_.pid = event.pid;
        stack_.tid = event.tid;
        return &stack_;
    }
    decoded_ = decode_extended_stack(event, stack_);
    if (!decoded_) {
        return nullptr;
    }
    items_.assign(event.extended.begin(), event.extended.end());
    return &stack_;
}

} // namespace dtrace::etw::plugin
